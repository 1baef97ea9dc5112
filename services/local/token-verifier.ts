import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';

/**
 * Verifies a Firebase ID token the way API Gateway's JWT authorizer does: issuer, audience and
 * expiry always; the signature against Google's keys when talking to a real Firebase project. The
 * auth emulator signs nothing (alg "none"), so in emulator mode only the claims are checked.
 */
export type VerifyToken = (token: string) => Promise<JWTPayload>;

export const firebaseTokenVerifier = ({
  projectId,
  emulator,
}: {
  projectId: string;
  emulator: boolean;
}): VerifyToken => {
  const issuer = `https://securetoken.google.com/${projectId}`;
  if (!emulator) {
    const keys = createRemoteJWKSet(
      new URL('https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com'),
    );
    return async (token) => (await jwtVerify(token, keys, { issuer, audience: projectId })).payload;
  }
  return async (token) => {
    decodeProtectedHeader(token); // throws on a malformed token
    const claims = decodeJwt(token);
    const now = Math.floor(Date.now() / 1000);
    if (claims.iss !== issuer) throw new Error('wrong issuer');
    if (claims.aud !== projectId) throw new Error('wrong audience');
    if (typeof claims.exp !== 'number' || claims.exp <= now) throw new Error('expired');
    if (!claims.sub) throw new Error('no subject');
    return claims;
  };
};

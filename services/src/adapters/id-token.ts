import type { JWTPayload } from 'jose';
import { config } from '../config';

/**
 * Verifies a Firebase ID token the way API Gateway's JWT authorizer does: issuer, audience and
 * expiry always; the signature against Google's published keys when talking to a real Firebase
 * project. The auth emulator signs nothing (alg "none"), so in emulator mode only the claims are
 * checked, as Firebase Admin does there. No credentials are needed: a token proves who signed in
 * with the project id alone, which is why a route can check one without Firebase Admin.
 *
 * jose is loaded on first use: most functions that bundle this module never verify a token.
 */
export type VerifyToken = (token: string) => Promise<JWTPayload>;

const GOOGLE_KEYS = 'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

export const firebaseTokenVerifier = ({
  projectId,
  emulator,
}: {
  projectId: string;
  emulator: boolean;
}): VerifyToken => {
  const issuer = `https://securetoken.google.com/${projectId}`;
  if (!emulator) {
    let keys: ReturnType<typeof import('jose').createRemoteJWKSet> | undefined;
    return async (token) => {
      const { createRemoteJWKSet, jwtVerify } = await import('jose');
      keys ??= createRemoteJWKSet(new URL(GOOGLE_KEYS));
      return (await jwtVerify(token, keys, { issuer, audience: projectId })).payload;
    };
  }
  return async (token) => {
    const { decodeJwt, decodeProtectedHeader } = await import('jose');
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

let configured: { key: string; verify: VerifyToken } | undefined;

/** The claims of an ID token of this process's Firebase project (the emulator's when configured). */
export const verifyIdToken = (token: string) => {
  const { FIREBASE_PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST } = config();
  const key = `${FIREBASE_PROJECT_ID} ${FIREBASE_AUTH_EMULATOR_HOST ?? ''}`;
  if (configured?.key !== key) {
    configured = {
      key,
      verify: firebaseTokenVerifier({ projectId: FIREBASE_PROJECT_ID, emulator: Boolean(FIREBASE_AUTH_EMULATOR_HOST) }),
    };
  }
  return configured.verify(token);
};

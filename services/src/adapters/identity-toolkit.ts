import { config } from '../config';
import { BadRequest, HttpError } from '../http/errors';
import { addressOf, exchange } from './aws-requests';

/**
 * Firebase's Identity Toolkit REST API, for what a request does as the signed-in user (a new
 * password, with the caller's own ID token and the project's web API key) and what the identity
 * worker does as the project (tokens valid only after a moment, with Firebase Admin's access
 * token). Sent over node:https with `exchange` (docs/decisions/0084: no fetch on a request path).
 * With FIREBASE_AUTH_EMULATOR_HOST the emulator answers, at its host, with any key.
 */
const TIMEOUT_MS = 8_000;

const baseUrl = () => {
  const { FIREBASE_AUTH_EMULATOR_HOST } = config();
  return FIREBASE_AUTH_EMULATOR_HOST
    ? `http://${FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1`
    : 'https://identitytoolkit.googleapis.com/v1';
};

const apiKey = () => {
  const { FIREBASE_API_KEY, FIREBASE_AUTH_EMULATOR_HOST } = config();
  if (FIREBASE_API_KEY) return FIREBASE_API_KEY;
  if (FIREBASE_AUTH_EMULATOR_HOST) return 'emulator-key';
  throw new Error('FIREBASE_API_KEY is not configured: the password cannot be changed');
};

/** Identity Toolkit's error, e.g. 'WEAK_PASSWORD : Password should be at least 6 characters'. */
export class IdentityToolkitError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`Identity Toolkit ${status} ${code}${detail ? `: ${detail}` : ''}`);
    this.name = 'IdentityToolkitError';
  }
}

const post = async <T>(url: string, body: object, headers: Record<string, string> = {}): Promise<T> => {
  const payload = Buffer.from(JSON.stringify(body));
  const { search } = new URL(url);
  const answer = await exchange(
    // addressOf keeps the path only: the query (the API key) goes back on it.
    { ...addressOf(url), path: `${addressOf(url).path}${search}` },
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(payload.length), ...headers },
      body: payload,
    },
    TIMEOUT_MS,
  );
  let parsed: { error?: { message?: string } } & Record<string, unknown> = {};
  try {
    parsed = answer.body ? JSON.parse(answer.body) : {};
  } catch {
    // An answer that is no JSON (a proxy's page) is reported by its status.
  }
  if (answer.status < 200 || answer.status > 299) {
    const message = parsed.error?.message ?? '';
    const [code, ...rest] = message.split(' : ');
    throw new IdentityToolkitError(answer.status, code?.trim() || `HTTP_${answer.status}`, rest.join(' : ').trim());
  }
  return parsed as T;
};

/** What a failed password change tells the user; anything else is our failure (500). */
const passwordChangeRefusal = (error: IdentityToolkitError): HttpError | undefined => {
  switch (error.code) {
    case 'WEAK_PASSWORD':
      return new BadRequest(
        'That password is too weak. Choose a longer one with letters and numbers.',
        undefined,
        'WEAK_PASSWORD',
      );
    case 'CREDENTIAL_TOO_OLD_LOGIN_AGAIN':
    case 'TOKEN_EXPIRED':
    case 'INVALID_ID_TOKEN':
      return new HttpError(403, 'RECENT_SIGN_IN_REQUIRED', 'Please enter your password again to continue.');
    case 'USER_DISABLED':
    case 'USER_NOT_FOUND':
      return new HttpError(403, 'FORBIDDEN', 'This account cannot change its password. Please contact support.');
    case 'TOO_MANY_ATTEMPTS_TRY_LATER':
      return new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many attempts. Please wait a few minutes and try again.');
    default:
      return undefined;
  }
};

/**
 * Sets a new password as the user (`accounts:update` with their ID token). Firebase then revokes
 * the account's refresh tokens, so every browser signs in again with the new password.
 */
export const changePasswordAsUser = async (idToken: string, newPassword: string) => {
  try {
    await post(`${baseUrl()}/accounts:update?key=${encodeURIComponent(apiKey())}`, {
      idToken,
      password: newPassword,
      returnSecureToken: false,
    });
  } catch (error) {
    if (error instanceof IdentityToolkitError) throw passwordChangeRefusal(error) ?? error;
    throw error;
  }
};

/**
 * Makes every refresh token of the account issued before `validSince` (epoch seconds) stop
 * working, as the project (Firebase Admin's access token; the emulator takes 'owner'). Unlike
 * firebase-admin's revokeRefreshTokens, which uses the moment it runs, this uses the moment the
 * user asked: a sign-in the browser made since then stays signed in. (The auth emulator records
 * the moment of the call instead of the value sent, and refuses older ID tokens at its own
 * endpoints but not older refresh tokens: Firebase itself does both.)
 */
export const revokeTokensBefore = async (uid: string, validSince: number, accessToken: string) => {
  const { FIREBASE_PROJECT_ID } = config();
  try {
    await post(
      `${baseUrl()}/projects/${encodeURIComponent(FIREBASE_PROJECT_ID)}/accounts:update`,
      { localId: uid, validSince: String(validSince) },
      { authorization: `Bearer ${accessToken}` },
    );
    return 'revoked' as const;
  } catch (error) {
    if (error instanceof IdentityToolkitError && error.code === 'USER_NOT_FOUND') return 'no-account' as const;
    throw error;
  }
};

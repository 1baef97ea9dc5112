import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { HttpError } from './errors';

/**
 * Sensitive actions (password, email, sign-out-everywhere, data download, account deletion) need a
 * token from a sign-in of the last few minutes: the browser re-authenticates with the password
 * first, which gives a fresh `auth_time`. A token refreshed from an old session keeps its original
 * `auth_time`, so a stolen or forgotten-open session cannot do these things.
 */
export const RECENT_SIGN_IN_SECONDS = 5 * 60;

export const RECENT_SIGN_IN_REQUIRED = 'RECENT_SIGN_IN_REQUIRED';

export class RecentSignInRequired extends HttpError {
  constructor() {
    super(403, RECENT_SIGN_IN_REQUIRED, 'Please enter your password again to continue.');
  }
}

type Claims = Record<string, unknown>;

const claimsOf = (event: APIGatewayProxyEventV2): Claims | undefined =>
  (event.requestContext as { authorizer?: { jwt?: { claims?: Claims } } }).authorizer?.jwt?.claims;

/** A claim holding seconds since the epoch; API Gateway passes claims as strings or numbers. */
export const secondsClaim = (value: unknown): number | undefined => {
  const seconds = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  return Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : undefined;
};

/** The token's `auth_time` (when the user last typed a password or otherwise signed in), in seconds. */
export const authTimeOf = (event: APIGatewayProxyEventV2): number | undefined =>
  secondsClaim(claimsOf(event)?.auth_time);

/** Throws the 403 RECENT_SIGN_IN_REQUIRED unless the caller signed in within the last five minutes. */
export const requireRecentSignIn = (event: APIGatewayProxyEventV2, now: Date = new Date()): void => {
  const authTime = authTimeOf(event);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  // A sign-in "in the future" beyond clock skew is as suspicious as an old one.
  if (authTime === undefined || nowSeconds - authTime > RECENT_SIGN_IN_SECONDS || authTime - nowSeconds > 60) {
    throw new RecentSignInRequired();
  }
};

/** The cutoff 'Sign out of all other devices' set on the user record (epoch seconds), if any. */
export const signedOutBeforeOf = (user: object): number | undefined => {
  const value = (user as { signedOutBefore?: unknown }).signedOutBefore;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};

/**
 * True when the token's sign-in came before the user's sign-out-everywhere cutoff: such a token is
 * refused at once (401) by every route and by the live-update socket, not when it expires.
 */
export const signedInBeforeCutoff = (user: object, authTimeClaim: unknown): boolean => {
  const cutoff = signedOutBeforeOf(user);
  if (cutoff === undefined) return false;
  const authTime = secondsClaim(authTimeClaim);
  return authTime === undefined || authTime < cutoff;
};

export const SESSION_ENDED_MESSAGE = 'You were signed out of this device. Please sign in again.';

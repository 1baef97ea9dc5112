import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { HttpError } from './errors';
import { requireRecentSignIn, signedInBeforeCutoff } from './recent-sign-in';

const at = new Date('2026-11-28T12:00:00Z');
const now = Math.floor(at.getTime() / 1000);

const eventWith = (claims: Record<string, unknown> | undefined) =>
  ({ requestContext: { authorizer: claims ? { jwt: { claims } } : undefined } }) as unknown as APIGatewayProxyEventV2;

const refusal = (claims: Record<string, unknown> | undefined) => {
  try {
    requireRecentSignIn(eventWith(claims), at);
    return null;
  } catch (error) {
    return error as HttpError;
  }
};

describe('requireRecentSignIn', () => {
  it('lets a sign-in of the last five minutes through, as a number or a string (API Gateway passes both)', () => {
    expect(refusal({ auth_time: now - 10 })).toBeNull();
    expect(refusal({ auth_time: String(now - 299) })).toBeNull();
    expect(refusal({ auth_time: now - 300 })).toBeNull();
  });

  it('refuses an older, missing, unreadable or far-future sign-in with 403 RECENT_SIGN_IN_REQUIRED', () => {
    for (const claims of [
      { auth_time: now - 301 },
      { auth_time: String(now - 3600) },
      {},
      { auth_time: 'yesterday' },
      { auth_time: now + 3600 },
      undefined,
    ]) {
      const error = refusal(claims);
      expect(error, JSON.stringify(claims)).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({
        statusCode: 403,
        code: 'RECENT_SIGN_IN_REQUIRED',
        message: 'Please enter your password again to continue.',
      });
    }
  });
});

describe('signedInBeforeCutoff', () => {
  it('refuses a sign-in before the cutoff, keeps one at or after it, and everything without one', () => {
    const user = { signedOutBefore: now };
    expect(signedInBeforeCutoff(user, now - 1)).toBe(true);
    expect(signedInBeforeCutoff(user, String(now - 1))).toBe(true);
    expect(signedInBeforeCutoff(user, undefined)).toBe(true);
    expect(signedInBeforeCutoff(user, now)).toBe(false);
    expect(signedInBeforeCutoff(user, String(now + 5))).toBe(false);
    expect(signedInBeforeCutoff({}, now - 3600)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { checkUnsubscribeToken, signUnsubscribeToken, UNSUBSCRIBE_TOKEN_DAYS } from './unsubscribe-token';

const key = 'a-test-key-of-enough-length-0123456789';
const DAY = 24 * 60 * 60 * 1000;

describe('the unsubscribe token', () => {
  it('names the account and the kind, is URL-safe, and works for 90 days', () => {
    const now = new Date('2026-11-28T10:00:00.000Z');
    const token = signUnsubscribeToken(key, { userId: 'user-1', kind: 'photos_ready', now });
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(encodeURIComponent(token)).toBe(token);
    const check = checkUnsubscribeToken(key, token, new Date(now.getTime() + 89 * DAY));
    expect(check).toMatchObject({ valid: true, userId: 'user-1', kind: 'photos_ready' });
    expect(check.valid && check.expiresAt.toISOString()).toBe(
      new Date(now.getTime() + UNSUBSCRIBE_TOKEN_DAYS * DAY).toISOString(),
    );
    expect(checkUnsubscribeToken(key, token, new Date(now.getTime() + 90 * DAY + 1000))).toEqual({
      valid: false,
      reason: 'expired',
    });
  });

  it('refuses a changed payload, a changed signature, another key and anything malformed', () => {
    const token = signUnsubscribeToken(key, { userId: 'user-1', kind: 'photos_ready' });
    const [payload, signature] = token.split('.') as [string, string];
    const other = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), k: 'editor_started' }),
    ).toString('base64url');
    const foreign = signUnsubscribeToken('another-key-of-enough-length-0000', {
      userId: 'user-1',
      kind: 'photos_ready',
    });
    // An expired token with a bad signature is 'invalid': the date of a token not ours means nothing.
    const oldForeign = signUnsubscribeToken('another-key-of-enough-length-0000', {
      userId: 'user-1',
      kind: 'photos_ready',
      now: new Date(Date.now() - 200 * DAY),
    });
    const unknownKind = (() => {
      const body = Buffer.from(JSON.stringify({ u: 'user-1', k: 'newsletter', e: 9_999_999_999 })).toString(
        'base64url',
      );
      return `${body}.${signature}`;
    })();
    for (const bad of [
      `${other}.${signature}`,
      `${payload}.${signature.slice(0, -2)}AA`,
      `${payload}.${signature}x`,
      foreign,
      oldForeign,
      unknownKind,
      '',
      '.',
      'abc',
      `${payload}.${signature}.extra`,
      `${payload}+.${signature}`,
    ]) {
      expect(checkUnsubscribeToken(key, bad), bad).toEqual({ valid: false, reason: 'invalid' });
    }
  });
});

import { describe, expect, it } from 'vitest';
import {
  checkRateLimits,
  isPublicPath,
  publicPathMatches,
  rateLimitedAnswer,
  rateLimits,
  scaleRateLimits,
} from './rate-limits';
import type { RouteDefinition } from './routes';

const route = (path: RouteDefinition['path'], allow: RouteDefinition['allow']): RouteDefinition => ({
  method: 'GET',
  path,
  handler: 'any',
  allow,
  records: 'none',
  grants: [],
});

describe('the per-client rate limits', () => {
  it('are limits WAF takes, the public routes the stricter, over a one-minute window', () => {
    expect(checkRateLimits(rateLimits)).toBe(rateLimits);
    expect(rateLimits.publicRouteRequests).toBeLessThan(rateLimits.allRequests);
    expect(rateLimits.windowSeconds).toBe(60);
  });

  it('refuse what WAF would refuse: a window it does not offer, a limit out of its bounds, a looser public limit', () => {
    expect(() => checkRateLimits({ ...rateLimits, windowSeconds: 90 as 60 })).toThrow(/windowSeconds 90/);
    expect(() => checkRateLimits({ ...rateLimits, publicRouteRequests: 9 })).toThrow(/publicRouteRequests 9/);
    expect(() => checkRateLimits({ ...rateLimits, allRequests: 10.5 })).toThrow(/allRequests 10.5/);
    expect(() => checkRateLimits({ ...rateLimits, allRequests: 3_000_000_000 })).toThrow(/allRequests/);
    expect(() => checkRateLimits({ ...rateLimits, publicRouteRequests: rateLimits.allRequests + 1 })).toThrow(
      /must not exceed allRequests/,
    );
  });

  it('scale to stand for many clients at one address, over the same window', () => {
    expect(scaleRateLimits(rateLimits, 20)).toEqual({
      publicRouteRequests: rateLimits.publicRouteRequests * 20,
      allRequests: rateLimits.allRequests * 20,
      windowSeconds: rateLimits.windowSeconds,
    });
  });

  it("answer in the gateway's JSON error shape and say when to try again", () => {
    const answer = rateLimitedAnswer(rateLimits);
    expect(answer.statusCode).toBe(429);
    expect(answer.retryAfterSeconds).toBe(60);
    expect(JSON.parse(answer.body)).toEqual({
      message: 'Too many requests from your address. Please wait a minute and try again.',
    });
    expect(JSON.parse(rateLimitedAnswer({ ...rateLimits, windowSeconds: 300 }).body).message).toContain('5 minutes');
  });
});

describe("the public routes' paths", () => {
  it("are the route table's public routes, parameters as prefixes, without the catch-all", () => {
    expect(publicPathMatches()).toEqual([
      // The email-change link, opened from the new address's inbox by someone maybe not signed in.
      { position: 'STARTS_WITH', path: '/api/account/email-change/' },
      { position: 'EXACTLY', path: '/api/auth/complete-signup' },
      { position: 'EXACTLY', path: '/api/auth/verify-invitation' },
      { position: 'EXACTLY', path: '/api/health' },
      { position: 'STARTS_WITH', path: '/api/share/' },
      { position: 'EXACTLY', path: '/api/stripe/connect-webhook' },
      // RFC 8058's one-click unsubscribe, posted by mailbox providers.
      { position: 'EXACTLY', path: '/api/unsubscribe' },
      { position: 'EXACTLY', path: '/api/webhooks/stripe' },
    ]);
  });

  it('match the public routes, decoded as WAF decodes the path, and nothing that needs sign-in', () => {
    const matches = publicPathMatches();
    expect(isPublicPath('/api/share/abc', matches)).toBe(true);
    expect(isPublicPath('/api/share/abc/downloads/full', matches)).toBe(true);
    expect(isPublicPath('/api/%73hare/abc', matches)).toBe(true);
    expect(isPublicPath('/api/webhooks/stripe', matches)).toBe(true);
    expect(isPublicPath('/api/share', matches)).toBe(false);
    expect(isPublicPath('/api/health/more', matches)).toBe(false);
    expect(isPublicPath('/api/orders/01ABC/share-links', matches)).toBe(false);
    expect(isPublicPath('/api/auth/me', matches)).toBe(false);
    expect(isPublicPath('/api/%zz', matches)).toBe(false);
  });

  it('refuse a public route whose prefix would put a signed-in route under the stricter limit', () => {
    expect(() =>
      publicPathMatches([route('/api/orders/{id}/preview', 'public'), route('/api/orders/{id}', 'signed-in')]),
    ).toThrow(/\/api\/orders\/\{id\}, which needs sign-in/);
  });
});

import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { RateLimits } from '../src/rate-limits';
import type { RouteDefinition } from '../src/routes';
import { clientAddress, createClientRateLimiter } from './rate-limiter';

const routes: RouteDefinition[] = [
  { method: 'GET', path: '/api/share/{token}', handler: 'share', allow: 'public', records: 'none', grants: [] },
  { method: 'GET', path: '/api/orders/{id}', handler: 'order', allow: 'signed-in', records: 'none', grants: [] },
];
const limits: RateLimits = { publicRouteRequests: 10, allRequests: 20, windowSeconds: 60 };

/** A limiter on a clock the test moves. */
const limiterAt = (start = 1_000_000_000_000) => {
  let now = start;
  const limiter = createClientRateLimiter(limits, routes, () => now);
  return {
    admit: (client: string, path: string) => limiter.admit(client, path),
    admitted: (client: string, path: string, count: number) =>
      Array.from({ length: count }, () => limiter.admit(client, path)).filter(Boolean).length,
    advance: (seconds: number) => {
      now += seconds * 1000;
    },
  };
};

describe('the local rate limiter', () => {
  it("admits a client's requests up to each limit within the window, then refuses them", () => {
    const limiter = limiterAt();
    expect(limiter.admitted('a', '/api/share/x', 15)).toBe(limits.publicRouteRequests);
    const other = limiterAt();
    expect(other.admitted('a', '/api/orders/1', 25)).toBe(limits.allRequests);
  });

  it('counts each client on its own', () => {
    const limiter = limiterAt();
    expect(limiter.admitted('a', '/api/share/x', 50)).toBe(limits.publicRouteRequests);
    expect(limiter.admitted('b', '/api/share/x', 5)).toBe(5);
  });

  it('slides: a request leaves the count a window after it was made', () => {
    const limiter = limiterAt();
    expect(limiter.admitted('a', '/api/share/x', 6)).toBe(6);
    limiter.advance(30);
    expect(limiter.admitted('a', '/api/share/x', 6)).toBe(4);
    // 59 seconds after the first six: all ten still count.
    limiter.advance(29);
    expect(limiter.admit('a', '/api/share/x')).toBe(false);
    // A window after the first six they are gone; the six of 30 s ago (two refused) and the one
    // refused at 59 s remain, so three more fit.
    limiter.advance(1);
    expect(limiter.admitted('a', '/api/share/x', 10)).toBe(3);
  });

  it('keeps refusing a client that keeps flooding, since refused requests count too, until it slows down', () => {
    const limiter = limiterAt();
    for (let second = 0; second < 180; second += 1) {
      limiter.admitted('a', '/api/share/x', 5);
      limiter.advance(1);
    }
    expect(limiter.admit('a', '/api/share/x')).toBe(false);
    limiter.advance(60);
    expect(limiter.admit('a', '/api/share/x')).toBe(true);
  });

  it('does not count a request the public routes refused against all requests, as WAF stops at the first block', () => {
    const limiter = limiterAt();
    expect(limiter.admitted('a', '/api/share/x', 100)).toBe(limits.publicRouteRequests);
    expect(limiter.admitted('a', '/api/orders/1', 20)).toBe(limits.allRequests - limits.publicRouteRequests);
  });

  it('refuses limits WAF would refuse', () => {
    expect(() => createClientRateLimiter({ ...limits, windowSeconds: 30 as 60 }, routes)).toThrow(/windowSeconds/);
  });
});

const request = (remoteAddress: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as unknown as IncomingMessage;

describe("a request's client", () => {
  it("is the socket's peer, in plain IPv4 form", () => {
    expect(clientAddress(request('203.0.113.9'))).toBe('203.0.113.9');
    expect(clientAddress(request('::ffff:127.0.0.2'))).toBe('127.0.0.2');
    expect(clientAddress(request('2001:db8::1'))).toBe('2001:db8::1');
  });

  it('is the address a proxy on this machine appended last to X-Forwarded-For', () => {
    expect(clientAddress(request('127.0.0.1', '192.0.2.7'))).toBe('192.0.2.7');
    expect(clientAddress(request('::1', '198.51.100.1, 192.0.2.7'))).toBe('192.0.2.7');
    expect(clientAddress(request('::ffff:127.0.0.1', '::ffff:192.0.2.7'))).toBe('192.0.2.7');
  });

  it('ignores X-Forwarded-For from any other peer, and an entry that is no address', () => {
    expect(clientAddress(request('203.0.113.9', '192.0.2.7'))).toBe('203.0.113.9');
    expect(clientAddress(request('127.0.0.1', '192.0.2.7, not-an-address'))).toBe('127.0.0.1');
    expect(clientAddress(request('127.0.0.1', ''))).toBe('127.0.0.1');
  });
});

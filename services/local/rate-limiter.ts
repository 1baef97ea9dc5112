import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { checkRateLimits, isPublicPath, publicPathMatches, type RateLimits } from '../src/rate-limits';
import type { RouteDefinition } from '../src/routes';

/**
 * WAF's two rate-based rules on one machine: each client's requests over the last window, kept
 * as counts per second (WAF re-checks its counts about every 10 seconds; a second is finer, never
 * looser). The rules run in the web ACL's order: a request the public routes' rule refuses ends
 * there, as a blocked request ends WAF's evaluation, and is not counted by the second rule.
 */
class SlidingCount {
  /** [second, requests in that second], oldest first, none older than the window. */
  private readonly seconds: [number, number][] = [];
  private sum = 0;

  constructor(private readonly windowSeconds: number) {}

  /** Adds one request at `second` and returns the requests within the window ending then. */
  add(second: number) {
    this.forget(second);
    const last = this.seconds.at(-1);
    if (last && last[0] === second) last[1] += 1;
    else this.seconds.push([second, 1]);
    this.sum += 1;
    return this.sum;
  }

  /** Whether nothing is left in the window ending at `second`. */
  idle(second: number) {
    this.forget(second);
    return this.sum === 0;
  }

  private forget(second: number) {
    while (this.seconds.length && (this.seconds[0]?.[0] ?? second) <= second - this.windowSeconds) {
      this.sum -= this.seconds.shift()?.[1] ?? 0;
    }
  }
}

export interface ClientRateLimiter {
  /** Counts one request of `client` to `path`; false when either rule refuses it. */
  admit: (client: string, path: string) => boolean;
}

export const createClientRateLimiter = (
  limits: RateLimits,
  routes: readonly RouteDefinition[],
  now: () => number = Date.now,
): ClientRateLimiter => {
  checkRateLimits(limits);
  const publicPaths = publicPathMatches(routes);
  const publicRoutes = new Map<string, SlidingCount>();
  const everything = new Map<string, SlidingCount>();
  let sweptAt = 0;

  const count = (counts: Map<string, SlidingCount>, client: string, second: number) => {
    let clientCount = counts.get(client);
    if (!clientCount) {
      clientCount = new SlidingCount(limits.windowSeconds);
      counts.set(client, clientCount);
    }
    return clientCount.add(second);
  };

  /** Once a window, clients with nothing left in it are dropped, so memory follows the active clients. */
  const sweep = (second: number) => {
    if (second - sweptAt < limits.windowSeconds) return;
    sweptAt = second;
    for (const counts of [publicRoutes, everything]) {
      for (const [client, clientCount] of counts) if (clientCount.idle(second)) counts.delete(client);
    }
  };

  return {
    admit: (client, path) => {
      const second = Math.floor(now() / 1000);
      sweep(second);
      if (isPublicPath(path, publicPaths) && count(publicRoutes, client, second) > limits.publicRouteRequests)
        return false;
      return count(everything, client, second) <= limits.allRequests;
    },
  };
};

/** IPv4 peers of a dual-stack socket read as ::ffff:a.b.c.d; WAF and CloudFront write them plainly. */
const plainAddress = (address: string) => (address.startsWith('::ffff:') ? address.slice(7) : address);

const isLoopback = (address: string) => address === '::1' || address.startsWith('127.');

/**
 * The address a request counts against: the socket's peer, as WAF counts the viewer's address
 * CloudFront received the request from. A peer on this machine that says whom it forwards for
 * (Vite's /api proxy, which appends its client's address to X-Forwarded-For) is taken at the last
 * entry, the one the proxy wrote; entries before it came from the client and could say anything.
 */
export const clientAddress = (req: IncomingMessage) => {
  const peer = plainAddress(req.socket.remoteAddress ?? '');
  const forwarded = req.headers['x-forwarded-for'];
  if (!isLoopback(peer) || typeof forwarded !== 'string') return peer;
  const last = plainAddress(forwarded.split(',').at(-1)?.trim() ?? '');
  return isIP(last) ? last : peer;
};

import { type RouteDefinition, routes } from './routes';

/**
 * How many requests one client may send: AWS WAF's rate-based rules in front of CloudFront in the
 * cloud (infra/lib/edge-stack.ts), the local gateway on one machine (services/local/gateway.ts).
 * A client is an IP address. Each limit counts the client's requests over the last
 * `windowSeconds`, a window that slides as WAF's evaluation window does; while the count is over
 * the limit the client is answered 429 and every other client goes on being served. Refused
 * requests count too, so a client that keeps flooding stays refused until it slows down.
 */
export interface RateLimits {
  /** Requests one address may send to the public routes (no sign-in) within the window. */
  publicRouteRequests: number;
  /** Requests one address may send to anything (the API, and in the cloud the site's files) within the window. */
  allRequests: number;
  /** How far back each count looks: one of WAF's evaluation windows. */
  windowSeconds: (typeof evaluationWindows)[number];
}

/** The evaluation windows WAF offers, in seconds. */
export const evaluationWindows = [60, 120, 300, 600] as const;
/** WAF's bounds for a rate-based rule's limit. */
const limitBounds = { min: 10, max: 2_000_000_000 };

/**
 * The marketplace's limits (docs/decisions/0083-per-client-rate-limits.md). The API stage takes 200
 * requests a second from everyone together, 12,000 a minute: one address gets a twelfth of that
 * at most, and a tenth of that again on the public routes, which need no token and so are where
 * a script would flood. A photographer's busiest minute (an upload signs its parts in batches)
 * or an office behind one address stays well under both.
 */
export const rateLimits: RateLimits = {
  publicRouteRequests: 100,
  allRequests: 1_000,
  windowSeconds: 60,
};

/**
 * Throws unless WAF would take these limits as they are: whole numbers in its bounds, one of its
 * windows, and the public routes' limit the stricter one. The CDK app and the local gateway both
 * check what they are given here, so the two accept the same configurations.
 */
export const checkRateLimits = (limits: RateLimits): RateLimits => {
  for (const [name, value] of [
    ['publicRouteRequests', limits.publicRouteRequests],
    ['allRequests', limits.allRequests],
  ] as const) {
    if (!Number.isInteger(value) || value < limitBounds.min || value > limitBounds.max)
      throw new Error(`${name} ${value} must be a whole number from ${limitBounds.min} to ${limitBounds.max}`);
  }
  if (!evaluationWindows.includes(limits.windowSeconds))
    throw new Error(`windowSeconds ${limits.windowSeconds} must be one of ${evaluationWindows.join(', ')}`);
  if (limits.publicRouteRequests > limits.allRequests)
    throw new Error(
      `publicRouteRequests ${limits.publicRouteRequests} must not exceed allRequests ${limits.allRequests}`,
    );
  return limits;
};

/**
 * The same limits times `factor`, over the same window: for one address that stands for many
 * clients at once (the test suite's whole traffic comes from 127.0.0.1). Checked like any other.
 */
export const scaleRateLimits = (limits: RateLimits, factor: number): RateLimits =>
  checkRateLimits({
    ...limits,
    publicRouteRequests: limits.publicRouteRequests * factor,
    allRequests: limits.allRequests * factor,
  });

/** A path as WAF's byte match compares it: the whole path, or its start. */
export interface PathMatch {
  position: 'EXACTLY' | 'STARTS_WITH';
  path: string;
}

/**
 * The public routes' paths from the route table: a path without parameters exactly, one with
 * parameters by what comes before the first ({token} is any text to WAF). The catch-all
 * ({proxy+}) is left out: it answers 404 for paths no route has, and its prefix is every path.
 * A prefix that would also take in a route needing sign-in is refused, so a new route cannot
 * fall under the stricter limit unnoticed.
 */
export const publicPathMatches = (table: readonly RouteDefinition[] = routes): PathMatch[] => {
  const matches = new Map<string, PathMatch>();
  for (const route of table) {
    if (route.allow !== 'public' || route.path.includes('+}')) continue;
    const firstParameter = route.path.indexOf('{');
    const match: PathMatch =
      firstParameter < 0
        ? { position: 'EXACTLY', path: route.path }
        : { position: 'STARTS_WITH', path: route.path.slice(0, firstParameter) };
    const signedIn = table.find((other) => other.allow !== 'public' && matchesPath(match, other.path));
    if (signedIn)
      throw new Error(
        `The public route ${route.path} would put ${signedIn.path}, which needs sign-in, under the public routes' limit: give it a path of its own`,
      );
    matches.set(`${match.position} ${match.path}`, match);
  }
  return [...matches.values()].sort((a, b) => a.path.localeCompare(b.path));
};

const matchesPath = (match: PathMatch, path: string) =>
  match.position === 'EXACTLY' ? path === match.path : path.startsWith(match.path);

/** WAF decodes the path before comparing it (its URL_DECODE text transformation); a malformed escape stays as sent. */
const decodedPath = (path: string) => {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
};

/** Whether a request's path counts against the public routes' limit, as WAF's scope-down statement decides it. */
export const isPublicPath = (path: string, matches: readonly PathMatch[]) => {
  const decoded = decodedPath(path);
  return matches.some((match) => matchesPath(match, decoded));
};

/** What a refused client is told, in the gateway's error shape, and when it may try again. */
export const rateLimitedAnswer = (limits: RateLimits) => {
  const wait = limits.windowSeconds === 60 ? 'a minute' : `${limits.windowSeconds / 60} minutes`;
  return {
    statusCode: 429,
    retryAfterSeconds: limits.windowSeconds,
    body: JSON.stringify({ message: `Too many requests from your address. Please wait ${wait} and try again.` }),
  };
};

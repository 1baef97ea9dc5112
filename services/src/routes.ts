import type { Role } from '@marketplace/events/roles';

/**
 * THE route table. The CDK app makes one Lambda per entry and the local gateway serves the same
 * entries; nothing else lists routes. `handler` is a module under src/handlers exporting `handler`.
 */
export type Access = 'public' | 'signed-in' | readonly Role[];
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDefinition {
  method: HttpMethod;
  path: `/api/${string}`;
  handler: string;
  allow: Access;
  /** Keep the body as sent (webhook signatures are computed over the raw bytes). */
  rawBody?: boolean;
  /** Seconds; the default suits plain table reads and writes. */
  timeoutSeconds?: number;
}

const route = (
  method: HttpMethod,
  path: RouteDefinition['path'],
  handler: string,
  options: Omit<RouteDefinition, 'method' | 'path' | 'handler'>,
): RouteDefinition => ({ method, path, handler, ...options });

export const routes: readonly RouteDefinition[] = [
  route('GET', '/api/health', 'system/health', { allow: 'public' }),
  route('GET', '/api/auth/me', 'auth/get-me', { allow: 'signed-in' }),
  route('PATCH', '/api/auth/profile', 'auth/update-profile', { allow: 'signed-in' }),
  route('GET', '/api/orders/job-types', 'orders/list-job-types', { allow: 'signed-in' }),
  route('POST', '/api/feedback', 'feedback/submit-feedback', { allow: 'signed-in' }),
  route('GET', '/api/feedback/my', 'feedback/list-my-feedback', { allow: 'signed-in' }),
];

/** API Gateway's route key, e.g. "GET /api/orders/{id}": how a handler finds its own entry. */
export const routeKey = (r: Pick<RouteDefinition, 'method' | 'path'>) => `${r.method} ${r.path}`;

export const routeByKey = new Map(routes.map((r) => [routeKey(r), r]));

/** A name safe for CloudFormation logical ids and function names: "GET /api/auth/me" -> "GetApiAuthMe". */
export const routeName = (r: Pick<RouteDefinition, 'method' | 'path'>) =>
  [r.method.toLowerCase(), ...r.path.split(/[/{}-]+/)]
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

import type { QueueName } from '@marketplace/events/order-events';
import type { Role } from '@marketplace/events/roles';
import { marketplaceRoles } from './domain/permissions';

/**
 * THE route table. The CDK app makes one Lambda per entry and the local gateway serves the same
 * entries; nothing else lists routes. `handler` is a module under src/handlers exporting `handler`.
 */
export type Access = 'public' | 'signed-in' | readonly Role[];
/** 'ANY' serves every method (only the catch-all uses it). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

/** What a route's function may touch; the CDK app grants exactly these and nothing more. */
export type Grant = 'table:read' | 'table:write' | 'photos:read' | 'photos:write' | `queue:${QueueName}`;

export interface RouteDefinition {
  method: HttpMethod;
  path: `/api/${string}`;
  handler: string;
  allow: Access;
  grants: readonly Grant[];
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

const read = ['table:read'] as const;
const readWrite = ['table:read', 'table:write'] as const;

export const routes: readonly RouteDefinition[] = [
  route('GET', '/api/health', 'system/health', { allow: 'public', grants: read }),
  // Every signed-in route writes: the first request of a new identity creates its user record.
  route('GET', '/api/auth/me', 'auth/get-me', { allow: 'signed-in', grants: readWrite }),
  route('PATCH', '/api/auth/profile', 'auth/update-profile', { allow: 'signed-in', grants: readWrite }),
  route('GET', '/api/orders/job-types', 'orders/list-job-types', { allow: marketplaceRoles, grants: readWrite }),
  route('POST', '/api/feedback', 'feedback/submit-feedback', { allow: 'signed-in', grants: readWrite }),
  route('GET', '/api/feedback/my', 'feedback/list-my-feedback', { allow: 'signed-in', grants: readWrite }),
  // Last resort for any other /api path, so an unknown route answers our JSON 404 in the cloud too.
  route('ANY', '/api/{proxy+}', 'system/not-found', { allow: 'public', grants: [] }),
];

/** API Gateway's route key, e.g. "GET /api/orders/{id}": how a handler finds its own entry. */
export const routeKey = (r: Pick<RouteDefinition, 'method' | 'path'>) => `${r.method} ${r.path}`;

export const routeByKey = new Map(routes.map((r) => [routeKey(r), r]));

/** A name safe for CloudFormation logical ids and function names: "GET /api/auth/me" -> "GetApiAuthMe". */
export const routeName = (r: Pick<RouteDefinition, 'method' | 'path'>) =>
  [r.method.toLowerCase(), ...r.path.split(/[^A-Za-z0-9]+/)]
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

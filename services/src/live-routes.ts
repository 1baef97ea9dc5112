import { LIVE_TOKEN_PARAMETER } from '@marketplace/events/live-updates';
import type { Grant } from './routes';

/**
 * THE WebSocket route table, beside the HTTP one: the CDK app makes the WebSocket API's
 * authorizer and one Lambda per route from it, and the local live gateway runs the same handlers.
 * `handler` is a module under src/handlers exporting `handler`. A tab sends only pings, which the
 * gateway answers itself (a mock integration in the cloud): no function runs for them.
 */
export interface LiveFunctionDefinition {
  handler: string;
  grants: readonly Grant[];
}

export interface LiveRouteDefinition extends LiveFunctionDefinition {
  routeKey: '$connect' | '$disconnect';
}

/**
 * The $connect authorizer (a REQUEST authorizer on the token in the connect URL's query): checks
 * the Firebase ID token as the HTTP API's JWT authorizer does, then the user's own record, so a
 * suspended or deleted account cannot listen. It answers Allow with the context
 * `{ userId, roles }` (roles comma-separated), Deny for a token of no active account, and throws
 * 'Unauthorized' (a 401) for a token that is forged, expired or of another project.
 */
export const liveAuthorizer: LiveFunctionDefinition & { identitySource: string } = {
  handler: 'live/authorize',
  identitySource: `route.request.querystring.${LIVE_TOKEN_PARAMETER}`,
  grants: ['table:read'],
};

export const liveRoutes: readonly LiveRouteDefinition[] = [
  // Stores the connection (its user and roles, from the authorizer's context) with a time to live.
  { routeKey: '$connect', handler: 'live/connect', grants: ['table:write'] },
  // Deletes it.
  { routeKey: '$disconnect', handler: 'live/disconnect', grants: ['table:write'] },
];

/** The message a tab sends to keep its socket open; the gateway answers it without a function. */
export const LIVE_PING_ROUTE = 'ping';
/** The route selection expression that finds LIVE_PING_ROUTE in `{"action":"ping"}`. */
export const LIVE_ROUTE_SELECTION = '$request.body.action';

import type { APIGatewayProxyResult, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { logger } from '../../adapters/logger';
import { saveConnection } from '../../data/live-connections';

/** What the $connect authorizer put in the connection's request context. */
export type LiveAuthorizerContext = { userId?: string; roles?: string; principalId?: string };

export const authorizerContextOf = (event: APIGatewayProxyWebsocketEventV2) =>
  ((event.requestContext as { authorizer?: LiveAuthorizerContext }).authorizer ?? {}) as LiveAuthorizerContext;

/**
 * $connect: stores the connection with its user and roles, as the authorizer found them, so the
 * push worker can find who listens to a change. The roles are those at connect: a role given or
 * taken later applies from the tab's next connection (at most two hours away), and every read
 * the tab then makes goes through the API, which checks the roles of the moment.
 */
export const handler = async (event: APIGatewayProxyWebsocketEventV2): Promise<APIGatewayProxyResult> => {
  const { userId, roles } = authorizerContextOf(event);
  if (!userId) return { statusCode: 403, body: 'Forbidden' };
  const connectionId = event.requestContext.connectionId;
  await saveConnection({ connectionId, userId, roles: roles ? roles.split(',').filter(Boolean) : [] });
  logger.info('live connection opened', { connectionId, userId });
  return { statusCode: 200, body: 'Connected' };
};

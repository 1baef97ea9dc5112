import type { APIGatewayProxyResult, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { logger } from '../../adapters/logger';
import { deleteConnection } from '../../data/live-connections';

/** $disconnect: forgets the connection. API Gateway sends it at most once and on a best-effort basis, so the TTL and the push worker's 410s clean up the rest. */
export const handler = async (event: APIGatewayProxyWebsocketEventV2): Promise<APIGatewayProxyResult> => {
  const connectionId = event.requestContext.connectionId;
  await deleteConnection(connectionId);
  logger.info('live connection closed', { connectionId });
  return { statusCode: 200, body: 'Disconnected' };
};

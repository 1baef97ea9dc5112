import type { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import type { LiveMessage, PushRequest } from '@marketplace/events/live-updates';
import { config } from '../config';
import { publish } from './queue-publisher';

/**
 * Live updates, both ends: a worker announces its own news (a thumbnail, a zip, a set of copies)
 * to the push queue, and the push worker posts messages to the browsers' sockets through the
 * WebSocket API's management endpoint (LIVE_ENDPOINT: API Gateway's, or the local live gateway's).
 */
export const announce = (...messages: LiveMessage[]) =>
  publish(
    'live-updates',
    messages.map((push): PushRequest => ({ push })),
  );

/** Loaded on the first post: only the push worker posts. */
const managementSdk = () => import('@aws-sdk/client-apigatewaymanagementapi');

let client: { endpoint: string; client: ApiGatewayManagementApiClient } | undefined;

const management = async () => {
  const { LIVE_ENDPOINT, AWS_REGION } = config();
  if (!LIVE_ENDPOINT) throw new Error('LIVE_ENDPOINT is not configured: there is no WebSocket API to post to');
  if (client?.endpoint !== LIVE_ENDPOINT) {
    const { ApiGatewayManagementApiClient } = await managementSdk();
    client = {
      endpoint: LIVE_ENDPOINT,
      client: new ApiGatewayManagementApiClient({ region: AWS_REGION, endpoint: LIVE_ENDPOINT }),
    };
  }
  return client.client;
};

const isGone = (error: unknown) =>
  (error as { name?: string })?.name === 'GoneException' ||
  (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 410;

/** 'gone' when API Gateway no longer knows the connection (the tab closed without a disconnect reaching us). */
export const postToConnection = async (connectionId: string, message: LiveMessage): Promise<'sent' | 'gone'> => {
  const [api, { PostToConnectionCommand }] = await Promise.all([management(), managementSdk()]);
  try {
    await api.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: JSON.stringify(message) }));
    return 'sent';
  } catch (error) {
    if (isGone(error)) return 'gone';
    throw error;
  }
};

/** Ends a connection (a suspended or deleted user's); one already gone is no error. */
export const closeConnection = async (connectionId: string): Promise<void> => {
  const [api, { DeleteConnectionCommand }] = await Promise.all([management(), managementSdk()]);
  try {
    await api.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
  } catch (error) {
    if (!isGone(error)) throw error;
  }
};

import { LIVE_TOKEN_PARAMETER } from '@marketplace/events/live-updates';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { verifyIdToken } from '../../adapters/id-token';
import { logger } from '../../adapters/logger';
import { getUser } from '../../data/users';
import { isShutOut } from '../../domain/permissions';
import { signedInBeforeCutoff } from '../../http/recent-sign-in';

/**
 * The WebSocket API's $connect authorizer. The token travels in the connect URL's query (a browser
 * cannot set headers on a WebSocket) and is checked as the HTTP API's JWT authorizer checks it;
 * then the user's own record, since a socket outlives the request that could have refused a
 * suspended or deleted account. A bad token is a 401 ('Unauthorized'), a good token of no
 * active account a 403 (Deny). The context hands $connect the user and roles to store.
 */
export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const token = event.queryStringParameters?.[LIVE_TOKEN_PARAMETER];
  if (!token) throw new Error('Unauthorized');
  let userId: string;
  let authTime: unknown;
  try {
    const claims = await verifyIdToken(token);
    userId = String(claims.sub);
    authTime = claims.auth_time;
  } catch (error) {
    logger.info('live connection refused: token not valid', { reason: (error as Error)?.message });
    throw new Error('Unauthorized');
  }
  const user = await getUser(userId);
  if (!user || isShutOut(user)) {
    logger.info('live connection refused: no active account', { userId });
    return policy(userId, 'Deny', event.methodArn);
  }
  // A token from before the user's 'Sign out of all other devices' is no longer a valid token.
  if (signedInBeforeCutoff(user, authTime)) {
    logger.info('live connection refused: signed out everywhere since this sign-in', { userId });
    throw new Error('Unauthorized');
  }
  return policy(userId, 'Allow', event.methodArn, { userId, roles: (user.roles ?? []).join(',') });
};

const policy = (
  principalId: string,
  effect: 'Allow' | 'Deny',
  resource: string,
  context?: { userId: string; roles: string },
): APIGatewayAuthorizerResult => ({
  principalId,
  policyDocument: {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }],
  },
  ...(context ? { context } : {}),
});

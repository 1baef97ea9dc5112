import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { LIVE_PATH } from '@marketplace/events/live-updates';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { type WebSocket, WebSocketServer } from 'ws';
import { LIVE_PING_ROUTE, LIVE_ROUTE_SELECTION, type LiveRouteDefinition, liveAuthorizer } from '../src/live-routes';

/**
 * API Gateway's WebSocket API on one machine, built from the live route table: the $connect
 * authorizer on the token in the query (401 when it throws, 403 on Deny), $connect and
 * $disconnect with the request context Lambda gets (the authorizer's context included), the ping
 * route answered without a function, the 10-minute idle timeout and 2-hour limit, and the
 * management API the push worker posts to (PostToConnection, DeleteConnection, GetConnection,
 * with 410 GoneException for a connection it does not know), on the same port. The push code is
 * the same here and in the cloud; only LIVE_ENDPOINT differs.
 */
type Handler = (event: unknown) => Promise<unknown>;

export interface LiveGatewayOptions {
  routes: readonly LiveRouteDefinition[];
  loadHandler: (handler: string) => Promise<Handler>;
  log?: (line: string) => void;
  /** API Gateway's idle timeout: 10 minutes. */
  idleTimeoutMs?: number;
  /** API Gateway's connection duration limit: 2 hours. */
  maxDurationMs?: number;
}

interface Connection {
  id: string;
  socket: WebSocket;
  authorizer: Record<string, unknown>;
  connectedAt: number;
  lastActiveAt: number;
  sourceIp: string;
  userAgent: string;
  idleTimer?: NodeJS.Timeout;
  durationTimer?: NodeJS.Timeout;
}

const STAGE = 'local';
const IDLE_TIMEOUT_MS = 10 * 60 * 1000;
const MAX_DURATION_MS = 2 * 60 * 60 * 1000;

/** API Gateway's connection ids are 12 base64 characters (e.g. "L0SM9cOFvHcCIhw="). */
const newConnectionId = () => randomBytes(10).toString('base64').replace(/\+/g, 'A').replace(/\//g, 'B');

const refuseUpgrade = (socket: Duplex, status: number, message: string) => {
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
};

const jsonAnswer = (res: http.ServerResponse, status: number, body?: unknown, errorType?: string) => {
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  res.end(body === undefined ? undefined : JSON.stringify(body));
};

export const createLiveGateway = ({
  routes,
  loadHandler,
  log,
  idleTimeoutMs = IDLE_TIMEOUT_MS,
  maxDurationMs = MAX_DURATION_MS,
}: LiveGatewayOptions) => {
  const connections = new Map<string, Connection>();
  const handlers = new Map<string, Promise<Handler>>();
  const handlerFor = (name: string) => {
    if (!handlers.has(name)) handlers.set(name, loadHandler(name));
    return handlers.get(name)!;
  };
  const routeFor = (routeKey: LiveRouteDefinition['routeKey']) => routes.find((r) => r.routeKey === routeKey);
  const sockets = new WebSocketServer({ noServer: true });
  /** While "restarting" (a test's outage), upgrades are refused until this time. */
  let downUntil = 0;

  const requestContext = (
    connection: Pick<Connection, 'id' | 'connectedAt' | 'sourceIp' | 'userAgent'>,
    routeKey: string,
    eventType: 'CONNECT' | 'DISCONNECT' | 'MESSAGE',
    host: string,
  ) => {
    const now = Date.now();
    return {
      routeKey,
      eventType,
      extendedRequestId: randomUUID(),
      requestTime: new Date(now).toUTCString(),
      messageDirection: 'IN',
      stage: STAGE,
      connectedAt: connection.connectedAt,
      requestTimeEpoch: now,
      identity: { sourceIp: connection.sourceIp, userAgent: connection.userAgent },
      requestId: randomUUID(),
      domainName: host,
      connectionId: connection.id,
      apiId: 'local',
    };
  };

  const disconnect = async (connection: Connection, statusCode: number, reason: string) => {
    if (!connections.delete(connection.id)) return;
    clearTimeout(connection.idleTimer);
    clearTimeout(connection.durationTimer);
    const route = routeFor('$disconnect');
    if (!route) return;
    try {
      const handler = await handlerFor(route.handler);
      await handler({
        headers: {},
        isBase64Encoded: false,
        requestContext: {
          ...requestContext(connection, '$disconnect', 'DISCONNECT', 'localhost'),
          authorizer: connection.authorizer,
          disconnectStatusCode: statusCode,
          disconnectReason: reason,
        },
      });
    } catch (error) {
      log?.(`live $disconnect threw: ${(error as Error)?.stack ?? error}`);
    }
  };

  const touch = (connection: Connection) => {
    connection.lastActiveAt = Date.now();
    clearTimeout(connection.idleTimer);
    connection.idleTimer = setTimeout(() => connection.socket.close(1001, 'Going away'), idleTimeoutMs);
  };

  /** The authorizer's answer: its context, or the status API Gateway gives the upgrade. */
  const authorize = async (
    url: URL,
    headers: Record<string, string>,
    context: ReturnType<typeof requestContext>,
  ): Promise<{ context: Record<string, unknown> } | { status: number; message: string }> => {
    const handler = await handlerFor(liveAuthorizer.handler);
    let result: APIGatewayAuthorizerResult;
    try {
      result = (await handler({
        type: 'REQUEST',
        methodArn: `arn:aws:execute-api:us-east-1:000000000000:local/${STAGE}/$connect`,
        headers,
        queryStringParameters: Object.fromEntries(url.searchParams),
        requestContext: context,
      })) as APIGatewayAuthorizerResult;
    } catch (error) {
      if ((error as Error)?.message === 'Unauthorized') return { status: 401, message: 'Unauthorized' };
      log?.(`live authorizer threw: ${(error as Error)?.stack ?? error}`);
      return { status: 500, message: 'Internal Server Error' };
    }
    const allowed = result.policyDocument.Statement.every((statement) => statement.Effect === 'Allow');
    if (!allowed) return { status: 403, message: 'Forbidden' };
    return { context: { ...(result.context ?? {}), principalId: result.principalId } };
  };

  const onUpgrade = async (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== LIVE_PATH && url.pathname !== '/') return refuseUpgrade(socket, 404, 'Not Found');
    if (Date.now() < downUntil) return refuseUpgrade(socket, 503, 'Service Unavailable');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers[name.toLowerCase()] = value;
    }
    const pending = {
      id: newConnectionId(),
      connectedAt: Date.now(),
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      userAgent: headers['user-agent'] ?? '',
    };
    const context = requestContext(pending, '$connect', 'CONNECT', headers.host ?? 'localhost');
    const decision = await authorize(url, headers, context);
    if ('status' in decision) return refuseUpgrade(socket, decision.status, decision.message);

    const route = routeFor('$connect');
    if (route) {
      try {
        const handler = await handlerFor(route.handler);
        const result = (await handler({
          headers,
          queryStringParameters: Object.fromEntries(url.searchParams),
          isBase64Encoded: false,
          requestContext: { ...context, authorizer: decision.context },
        })) as { statusCode?: number } | undefined;
        const status = result?.statusCode ?? 200;
        if (status < 200 || status > 299) return refuseUpgrade(socket, status, 'Forbidden');
      } catch (error) {
        log?.(`live $connect threw: ${(error as Error)?.stack ?? error}`);
        return refuseUpgrade(socket, 500, 'Internal Server Error');
      }
    }

    sockets.handleUpgrade(req, socket, head, (ws) => {
      const connection: Connection = { ...pending, socket: ws, authorizer: decision.context, lastActiveAt: Date.now() };
      connections.set(connection.id, connection);
      touch(connection);
      connection.durationTimer = setTimeout(() => ws.close(1001, 'Going away'), maxDurationMs);
      ws.on('message', (data) => {
        touch(connection);
        // The route selection expression, $request.body.action: only the ping route exists.
        let action: unknown;
        try {
          action = (JSON.parse(data.toString()) as Record<string, unknown>)?.[
            LIVE_ROUTE_SELECTION.replace('$request.body.', '')
          ];
        } catch {
          action = undefined;
        }
        if (action === LIVE_PING_ROUTE) return;
        // What API Gateway answers a message no route takes.
        ws.send(JSON.stringify({ message: 'Forbidden', connectionId: connection.id, requestId: randomUUID() }));
      });
      ws.on('close', (code, reason) => void disconnect(connection, code, reason.toString()));
      ws.on('error', () => ws.terminate());
    });
  };

  /** The management API: /@connections/{id}, as the AWS SDK's ApiGatewayManagementApi client calls it. */
  const onRequest = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'POST' && url.pathname === '/_local/restart') {
      // For tests: every socket dropped as a gateway restart drops them, new ones refused a while.
      downUntil = Date.now() + Number(url.searchParams.get('downMs') ?? 0);
      const dropped = connections.size;
      for (const connection of [...connections.values()]) connection.socket.close(1012, 'Service Restart');
      return jsonAnswer(res, 200, { dropped });
    }
    const found = /^(?:\/[^/@]+)?\/@connections\/([^/]+)$/.exec(url.pathname);
    if (!found) return jsonAnswer(res, 404, { message: 'Not Found' });
    const connectionId = decodeURIComponent(found[1] ?? '');
    const connection = connections.get(connectionId);
    const body = await buffer(req);
    if (!connection || connection.socket.readyState !== connection.socket.OPEN) {
      return jsonAnswer(res, 410, { message: null }, 'GoneException');
    }
    switch (req.method) {
      case 'POST':
        if (body.length > 128 * 1024)
          return jsonAnswer(res, 413, { message: 'Request Entity Too Large' }, 'PayloadTooLargeException');
        connection.socket.send(body.toString('utf8'));
        return jsonAnswer(res, 200);
      case 'DELETE':
        connection.socket.close(1000, 'Closed by the server');
        return jsonAnswer(res, 204);
      case 'GET':
        return jsonAnswer(res, 200, {
          ConnectedAt: new Date(connection.connectedAt).toISOString(),
          LastActiveAt: new Date(connection.lastActiveAt).toISOString(),
          Identity: { SourceIp: connection.sourceIp, UserAgent: connection.userAgent },
        });
      default:
        return jsonAnswer(res, 404, { message: 'Not Found' });
    }
  };

  const server = http.createServer((req, res) => {
    onRequest(req, res).catch((error: unknown) => {
      log?.(`live management API broke: ${(error as Error)?.stack ?? error}`);
      if (!res.headersSent) jsonAnswer(res, 500, { message: 'Internal Server Error' });
    });
  });
  server.on('upgrade', (req, socket, head) => {
    onUpgrade(req, socket, head).catch((error: unknown) => {
      log?.(`live connect broke: ${(error as Error)?.stack ?? error}`);
      refuseUpgrade(socket, 500, 'Internal Server Error');
    });
  });
  // An upgraded socket no longer belongs to the server, so closing the server ends them first
  // (each with its $disconnect), or close would wait for every tab to leave.
  const closeServer = server.close.bind(server);
  server.close = (callback?: (error?: Error) => void) => {
    for (const connection of connections.values()) connection.socket.terminate();
    return closeServer(callback);
  };
  return server;
};

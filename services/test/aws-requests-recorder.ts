import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';

/**
 * For tests that compare a call of ours with the same call made by the service's SDK client: a
 * local server that keeps what each request brought and answers it, and a middleware that takes
 * out of the SDK's request the headers only the SDK sends before it is signed. What is left is
 * signed over the same canonical request as ours, so equal Authorization headers mean equal
 * requests, and a signing mistake (scope, signed headers, payload hash, path) fails the test.
 */
export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RecorderAnswer {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

export const startRecorder = async (answerTo: (request: Recorded) => RecorderAnswer) => {
  const received: Recorded[] = [];
  const server = createServer(async (request, response) => {
    // Whole before decoding: a character split between two chunks stays one character.
    const body = (await buffer(request)).toString('utf8');
    const recorded = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
    received.push(recorded);
    const answer = answerTo(recorded);
    response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};

/**
 * The SDK's invocation id and attempt count, its user agent, and SQS's query-compatibility mode
 * (which only adds the old query API's error codes to an error answer): signed by the SDK, not sent by us.
 */
const SDK_ONLY_HEADERS = /^(amz-sdk-invocation-id|amz-sdk-request|x-amz-user-agent|x-amzn-query-mode)$/i;

type Middleware = (
  next: (args: { request: unknown }) => Promise<unknown>,
) => (args: { request: unknown }) => Promise<unknown>;

interface MiddlewareStack {
  addRelativeTo(middleware: Middleware, options: { relation: 'before'; toMiddleware: string; name: string }): void;
}

/** The client, made to sign only the headers our calls send too. */
export const signingOnlyOurHeaders = <Client extends { middlewareStack: { addRelativeTo(...args: never): void } }>(
  client: Client,
) => {
  (client.middlewareStack as unknown as MiddlewareStack).addRelativeTo(
    (next) => async (args) => {
      const headers = (args.request as { headers: Record<string, string> }).headers;
      for (const name of Object.keys(headers)) if (SDK_ONLY_HEADERS.test(name)) delete headers[name];
      return next(args);
    },
    { relation: 'before', toMiddleware: 'httpSigningMiddleware', name: 'withoutSdkOnlyHeaders' },
  );
  return client;
};

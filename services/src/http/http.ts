import type * as z from '@marketplace/events/zod';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { logger } from '../adapters/logger';
import { decideAccess } from '../domain/permissions';
import { type Access, routeByKey } from '../routes';
import { type CurrentUser, userFromClaims } from './current-user';
import { BadRequest, Forbidden, HttpError, Unauthorized } from './errors';
import { SESSION_ENDED_MESSAGE, signedInBeforeCutoff } from './recent-sign-in';
import { errorBody, json } from './responses';

/**
 * The one stack every route handler goes through: the request's context to the logger, body
 * parsing, zod validation of params, query and body, the signed-in user and the route table's role
 * rule, errors to JSON, and an answer just before Lambda's timeout. It did the same as a middy
 * stack (with the Powertools logger's middleware); written out, a function imports 2 to 3 ms of
 * CPU sooner (docs/decisions/0104-own-logger-and-route-stack.md).
 */
type Schemas = {
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
};

type Parsed<S extends Schemas, K extends keyof Schemas> = S[K] extends z.ZodMiniType ? z.output<S[K]> : undefined;

export interface Request<S extends Schemas, U> {
  params: Parsed<S, 'params'>;
  query: Parsed<S, 'query'>;
  body: Parsed<S, 'body'>;
  user: U;
  event: APIGatewayProxyEventV2;
  requestId: string;
}

type Handler<S extends Schemas, U> = (req: Request<S, U>) => Promise<APIGatewayProxyStructuredResultV2>;

export type ApiEvent = APIGatewayProxyEventV2 & {
  requestContext: APIGatewayProxyEventV2['requestContext'] & {
    authorizer?: { jwt?: { claims?: Record<string, string | number | boolean | string[]> } };
  };
};

const validationFailed = (where: string, error: z.core.$ZodError) => {
  const details = error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  return new BadRequest(error.issues[0]?.message ?? `Invalid ${where}`, details, 'VALIDATION_FAILED');
};

const parsePart = <T extends z.ZodMiniType | undefined>(schema: T, value: unknown, where: string) => {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw validationFailed(where, result.error);
  return result.data;
};

const readBody = (event: APIGatewayProxyEventV2): unknown => {
  if (!event.body) return undefined;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequest('Request body is not valid JSON', undefined, 'INVALID_JSON');
  }
};

const accessOf = (event: APIGatewayProxyEventV2): Access => {
  const route = routeByKey.get(event.routeKey);
  // A handler reached through a route key the table does not know is a wiring mistake: refuse it.
  if (!route) throw new Forbidden('This route is not open');
  return route.allow;
};

const toErrorResponse = (error: unknown, requestId: string) => {
  if (error instanceof HttpError) {
    if (error.statusCode >= 500) logger.error('request failed', { error });
    return json(error.statusCode, errorBody(error.code, error.message, error.details));
  }
  logger.error('unhandled error', { error: error as Error, requestId });
  return json(500, { ...errorBody('INTERNAL', 'Something went wrong on our side. Please try again.'), requestId });
};

/** Headers added to every answer of a route, its errors included. */
const withHeaders = (response: APIGatewayProxyStructuredResultV2, headers: Readonly<Record<string, string>>) => ({
  ...response,
  headers: { ...response.headers, ...headers },
});

/** How long before Lambda's timeout the function answers a request still running (as middy did). */
const TIMEOUT_EARLY_MS = 5;

/**
 * The handler's answer, or an error just before Lambda would stop the function, so that the caller
 * gets our JSON 500 (and the log its error) instead of API Gateway's bare one.
 */
const beforeTimeout = async <T>(work: Promise<T>, context: Partial<Context>): Promise<T> => {
  if (!context.getRemainingTimeInMillis) return work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new Error('[AbortError]: The operation was aborted.', {
        cause: { reason: 'the function was about to time out' },
      });
      error.name = 'TimeoutError';
      reject(error);
    }, context.getRemainingTimeInMillis!() - TIMEOUT_EARLY_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

export interface RouteOptions {
  /** Sent with every answer, errors included (the share routes' noindex and no-referrer). */
  headers?: Readonly<Record<string, string>>;
}

/** A route's handler, carrying the schemas it validates with (tests generate hostile input from them). */
export type RouteHandler<S extends Schemas = Schemas> = ((
  event: APIGatewayProxyEventV2,
  context?: Partial<Context>,
) => Promise<APIGatewayProxyStructuredResultV2>) & { inputSchemas: S };

const stack = <S extends Schemas, U>(
  schemas: S,
  handle: Handler<S, U>,
  resolveUser: (event: ApiEvent, access: Access) => Promise<U>,
  options: RouteOptions = {},
): RouteHandler<S> => {
  const run = async (event: APIGatewayProxyEventV2, context: Partial<Context>) => {
    const access = accessOf(event);
    if (access !== 'public' && !(event as ApiEvent).requestContext.authorizer?.jwt?.claims?.sub) {
      throw new Unauthorized();
    }
    // Input is checked before the user is resolved: bad input writes nothing, not even the
    // record a new identity's first request creates.
    const params = parsePart(schemas.params, event.pathParameters ?? {}, 'params');
    const query = parsePart(schemas.query, event.queryStringParameters ?? {}, 'query');
    const body = schemas.body ? parsePart(schemas.body, readBody(event) ?? {}, 'body') : undefined;
    const user = await resolveUser(event as ApiEvent, access);
    return handle({ params, query, body, user, event, requestId: context.awsRequestId } as Request<S, U>);
  };
  const handler = async (
    event: APIGatewayProxyEventV2 = {} as APIGatewayProxyEventV2,
    context: Partial<Context> = {},
  ) => {
    logger.addContext(context);
    let response: APIGatewayProxyStructuredResultV2;
    try {
      response = await beforeTimeout(run(event, context), context);
    } catch (error) {
      // Any error a handler throws becomes our JSON error response (a 500 without internals).
      response = toErrorResponse(error, context.awsRequestId ?? 'local');
    }
    return options.headers && response ? withHeaders(response, options.headers) : response;
  };
  return Object.assign(handler, { inputSchemas: schemas });
};

const signedInUser = async (event: ApiEvent, access: Access): Promise<CurrentUser> => {
  // API Gateway's JWT authorizer has already checked the token; no claims means no authorizer ran.
  const claims = event.requestContext.authorizer?.jwt?.claims;
  const user = claims?.sub ? await userFromClaims(claims) : null;
  // 'Sign out of all other devices': a token from a sign-in before the cutoff is refused at once.
  if (user && signedInBeforeCutoff(user, claims?.auth_time)) throw new Unauthorized(SESSION_ENDED_MESSAGE);
  switch (decideAccess(access, user)) {
    case 'sign-in-required':
      throw new Unauthorized();
    case 'deactivated':
      throw new Forbidden('Your account has been deactivated. Please contact support.');
    case 'role-missing':
      throw new Forbidden("You don't have permission to access this resource");
  }
  return user!;
};

/** A route for signed-in users; the route table says which roles may call it. */
export const http = <S extends Schemas>(schemas: S, handle: Handler<S, CurrentUser>) =>
  stack(schemas, handle, signedInUser);

/** A route anyone may call (the route table marks it public). */
export const publicHttp = <S extends Schemas>(schemas: S, handle: Handler<S, null>, options?: RouteOptions) =>
  stack(schemas, handle, async () => null, options);

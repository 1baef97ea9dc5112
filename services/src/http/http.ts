import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type * as z from '@marketplace/events/zod';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { logger } from '../adapters/logger';
import { decideAccess } from '../domain/permissions';
import { type Access, routeByKey } from '../routes';
import { type CurrentUser, userFromClaims } from './current-user';
import { BadRequest, Forbidden, HttpError, Unauthorized } from './errors';
import { SESSION_ENDED_MESSAGE, signedInBeforeCutoff } from './recent-sign-in';
import { errorBody, json } from './responses';

/**
 * The one middy stack every route handler goes through: body parsing, zod validation of params,
 * query and body, the signed-in user and the route table's role rule, and errors to JSON.
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

/** Any error a handler throws becomes our JSON error response (a 500 without internals). */
const jsonErrors = (): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => ({
  onError: async (request) => {
    request.response = toErrorResponse(request.error, request.context.awsRequestId ?? 'local');
  },
});

/** Headers added to every answer of a route, its errors included. */
const answerHeaders = (
  headers: Readonly<Record<string, string>>,
): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => {
  const add = async (request: middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>) => {
    if (request.response)
      request.response = { ...request.response, headers: { ...request.response.headers, ...headers } };
  };
  return { after: add, onError: add };
};

export interface RouteOptions {
  /** Sent with every answer, errors included (the share routes' noindex and no-referrer). */
  headers?: Readonly<Record<string, string>>;
}

/** A route's handler, carrying the schemas it validates with (tests generate hostile input from them). */
export type RouteHandler<S extends Schemas = Schemas> = ReturnType<
  typeof middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>
> & { inputSchemas: S };

const stack = <S extends Schemas, U>(
  schemas: S,
  handle: Handler<S, U>,
  resolveUser: (event: ApiEvent, access: Access) => Promise<U>,
  options: RouteOptions = {},
): RouteHandler<S> => {
  const base = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>().use(
    injectLambdaContext(logger, { resetKeys: true }),
  );
  // Used before jsonErrors, so its onError runs after jsonErrors has turned the error into an answer.
  const handler = (options.headers ? base.use(answerHeaders(options.headers)) : base)
    .use(jsonErrors())
    .handler(async (event, context: Context) => {
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
    });
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

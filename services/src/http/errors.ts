/** The only errors a handler throws on purpose. Anything else becomes a 500 with no internals. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends HttpError {
  constructor(message: string, details?: unknown, code = 'BAD_REQUEST') {
    super(400, code, message, details);
  }
}

export class Unauthorized extends HttpError {
  constructor(message = 'Sign in to continue') {
    super(401, 'UNAUTHORIZED', message);
  }
}

export class Forbidden extends HttpError {
  constructor(message = "You don't have permission to do this") {
    super(403, 'FORBIDDEN', message);
  }
}

export class NotFound extends HttpError {
  constructor(message = 'Not found', code = 'NOT_FOUND') {
    super(404, code, message);
  }
}

export class Conflict extends HttpError {
  constructor(message: string, details?: unknown, code = 'CONFLICT') {
    super(409, code, message, details);
  }
}

export class Unprocessable extends HttpError {
  constructor(message: string, details?: unknown) {
    super(422, 'UNPROCESSABLE', message, details);
  }
}

import { NotFound } from '../../http/errors';
import { publicHttp } from '../../http/http';

export const handler = publicHttp({}, async ({ event }) => {
  throw new NotFound(`No such API route: ${event.requestContext.http.method} ${event.rawPath}`);
});

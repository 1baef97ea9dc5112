import * as z from '@marketplace/events/zod';
import { listSecurityActivity } from '../../data/security-activity';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** GET /api/account/security-activity: the caller's own recent security activity, a page at a time. */
export const handler = http(
  { query: z.object({ cursor: z.optional(z.string().check(z.maxLength(512))) }) },
  async ({ query, user }) => ok(await listSecurityActivity(user.userId, query.cursor)),
);

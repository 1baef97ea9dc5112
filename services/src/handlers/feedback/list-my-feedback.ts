import * as z from '@marketplace/events/zod';
import { listFeedbackByUser } from '../../data/feedback';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

export const handler = http(
  { query: z.object({ cursor: z.optional(z.string().check(z.maxLength(2048))) }) },
  async ({ query, user }) => ok(await listFeedbackByUser(user.userId, query.cursor)),
);

import * as z from 'zod';
import { listFeedbackByUser } from '../../data/feedback';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

export const handler = http({ query: z.object({ cursor: z.string().max(2048).optional() }) }, async ({ query, user }) =>
  ok(await listFeedbackByUser(user.userId, query.cursor)),
);

import { updateJobTypeInput } from '@marketplace/events/admin';
import * as z from '@marketplace/events/zod';
import { updateJobType } from '../../data/job-types';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Prices, name, description or whether it is offered; orders already placed keep their prices. */
export const handler = http(
  { params: z.object({ id: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)) }), body: updateJobTypeInput },
  async ({ params, body }) => ok(await updateJobType(params.id, body)),
);

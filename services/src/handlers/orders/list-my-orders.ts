import * as z from '@marketplace/events/zod';
import { listPhotographerOrders, ORDERS_PAGE_SIZE_MAX } from '../../data/orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

export const handler = http(
  {
    query: z.object({
      limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(ORDERS_PAGE_SIZE_MAX)), 20),
      cursor: z.optional(z.string().check(z.maxLength(2048))),
    }),
  },
  async ({ query, user }) => ok(await listPhotographerOrders(user.userId, query)),
);

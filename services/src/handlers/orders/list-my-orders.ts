import * as z from 'zod';
import { listPhotographerOrders, ORDERS_PAGE_SIZE_MAX } from '../../data/orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

export const handler = http(
  {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(ORDERS_PAGE_SIZE_MAX).default(20),
      cursor: z.string().max(2048).optional(),
    }),
  },
  async ({ query, user }) => ok(await listPhotographerOrders(user.userId, query)),
);

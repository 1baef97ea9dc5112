import { availableOrdersQuery } from '@marketplace/events/editor-orders';
import { listAvailableOrders } from '../../data/editor-orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

export const handler = http({ query: availableOrdersQuery }, async ({ query, user }) =>
  ok(await listAvailableOrders(user, query)),
);

import { adminOrdersQuery } from '@marketplace/events/admin';
import { listAdminOrders } from '../../data/admin-orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** The admin's order table: a page of one assignment filter and sort, optionally searched. */
export const handler = http({ query: adminOrdersQuery }, async ({ query }) => ok(await listAdminOrders(query)));

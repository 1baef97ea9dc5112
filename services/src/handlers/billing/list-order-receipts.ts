import type { OrderReceiptsView } from '@marketplace/events/billing';
import { orderBillingEntries, toBillingEntryView } from '../../data/billing';
import { getOwnOrder } from '../../data/orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';

/** The order's payment and refund, each with whether its PDF receipt is made yet. */
export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  const entries = await orderBillingEntries(order.orderId);
  const view: OrderReceiptsView = {
    receipts: entries.filter((entry) => entry.photographerId === user.userId).map(toBillingEntryView),
  };
  return ok(view);
});

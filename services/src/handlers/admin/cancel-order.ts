import { cancelOrder } from '../../data/admin-assignment';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';

/** Cancels an order nobody is working on, refunding a paid one in full, once however often it is called. */
export const handler = http({ params: orderParams }, async ({ params, user }) =>
  ok(await cancelOrder({ orderId: params.id, adminId: user.userId })),
);

import { getOwnOrder } from '../../data/orders';
import { listShareLinks, toShareLinkView } from '../../data/share-links';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';

/** The order's share links, newest first, with their views and downloads; never their tokens. */
export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  const now = Date.now();
  const links = await listShareLinks(order.orderId);
  return ok({ links: links.map((link) => toShareLinkView(link, now)) });
});

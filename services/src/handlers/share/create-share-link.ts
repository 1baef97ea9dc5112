import { createShareLinkInput } from '@marketplace/events/delivery';
import { getOwnOrder } from '../../data/orders';
import { createShareLink } from '../../data/share-links';
import { http } from '../../http/http';
import { created } from '../../http/responses';
import { orderParams } from '../orders/order-params';

/** A share link for the photographer's completed order; the only answer that ever holds its token. */
export const handler = http({ params: orderParams, body: createShareLinkInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  const link = await createShareLink({
    order,
    userId: user.userId,
    ...(body.expiresInDays ? { expiresInDays: body.expiresInDays } : {}),
  });
  return created(link);
});

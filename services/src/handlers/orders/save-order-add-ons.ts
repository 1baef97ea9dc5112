import { saveOrderAddOnsInput } from '@marketplace/events/add-ons';
import { saveOrderAddOns } from '../../data/add-ons';
import { getOwnOrder } from '../../data/orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/**
 * The photographer ticks add-ons on the photos of their order awaiting payment: the server prices
 * it, moves the payment to the new total and answers the priced breakdown. No amount is read from
 * the body (its schema is strict: a price sent along is a 400).
 */
export const handler = http({ params: orderParams, body: saveOrderAddOnsInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  return ok(await saveOrderAddOns({ order, photographerId: user.userId, photos: body.photos }));
});

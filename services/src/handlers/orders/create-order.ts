import { createOrderInput } from '@marketplace/events/orders';
import { createPricedOrder, toCreatedOrderResponse } from '../../data/priced-order';
import { http } from '../../http/http';
import { created } from '../../http/responses';

/** Creates an order awaiting payment, priced on the server, with its Stripe payment intent. */
export const handler = http({ body: createOrderInput }, async ({ body, user }) => {
  const { order, stripeClientSecret } = await createPricedOrder({
    photographer: { userId: user.userId, name: user.displayName ?? user.email },
    input: body,
  });
  return created(toCreatedOrderResponse(order, stripeClientSecret));
});

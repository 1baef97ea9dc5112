import {
  orderPaymentPath,
  type SavedCardPaymentResult,
  savedCardMessages,
  savedCardPaymentInput,
} from '@marketplace/events/payments';
import { findPaymentIntent } from '../../adapters/stripe';
import { confirmWithSavedCard, customerCard } from '../../adapters/stripe-cards';
import { payOrder, startPaymentAgain } from '../../data/order-payments';
import { recordedStripeCustomer } from '../../data/stripe-customers';
import { BadRequest, Conflict } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';
import { payableOrder } from './payable-order';

/** Only the order's own payment page may be where the browser comes back after authentication. */
const returnsToPaymentPage = (returnUrl: string, orderId: string) => {
  const url = new URL(returnUrl);
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  return (url.protocol === 'https:' || local) && url.pathname === orderPaymentPath(orderId) && !url.hash;
};

/**
 * 'Pay $X with Visa •••• 4242': the order's intent, for the amount the server set, confirmed with
 * a saved card once Stripe says the card is attached to the caller's own customer. A card that
 * asks for authentication sends the browser to its bank's page, which comes back to the order's
 * payment page; that page then checks the payment with POST /payment-success as any other.
 */
export const handler = http({ params: orderParams, body: savedCardPaymentInput }, async ({ params, body, user }) => {
  const order = await payableOrder(params.id, user.userId);
  if (!returnsToPaymentPage(body.returnUrl, order.orderId)) throw new BadRequest(savedCardMessages.wrongReturnUrl);
  const customerId = await recordedStripeCustomer(user.userId);
  await customerCard(customerId, body.paymentMethodId);

  const current = (await findPaymentIntent(order.stripePaymentIntentId)) ?? (await startPaymentAgain(order));
  if (current.status === 'succeeded') {
    await payOrder({ order, payment: current, via: 'client' });
    throw new Conflict('This order is already paid');
  }
  if (current.status === 'canceled') throw new Conflict('This payment was cancelled. Please create a new order.');

  const intent = await confirmWithSavedCard({
    paymentIntentId: current.id,
    customerId: customerId!,
    paymentMethodId: body.paymentMethodId,
    returnUrl: body.returnUrl,
  });
  let result: SavedCardPaymentResult;
  if (intent.status === 'succeeded') {
    await payOrder({ order: { ...order, stripePaymentIntentId: current.id }, payment: intent, via: 'client' });
    result = { status: 'paid', orderId: order.orderId };
  } else {
    const redirectUrl = intent.next_action?.redirect_to_url?.url;
    if (intent.status !== 'requires_action' || !redirectUrl) throw new Conflict('Payment was not completed');
    result = { status: 'requires_action', redirectUrl };
  }
  return ok(result);
});

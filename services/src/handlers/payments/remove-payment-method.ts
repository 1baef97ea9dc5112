import { type PaymentMethodsView, paymentMethodParams } from '@marketplace/events/payments';
import { customerCard, removeCard, savedCards } from '../../adapters/stripe-cards';
import { recordedStripeCustomer } from '../../data/stripe-customers';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/**
 * Removes one of the caller's saved cards (detached at Stripe, so it can never be charged again);
 * a card of another account, or one already removed, is a 404. Answers the cards left.
 */
export const handler = http({ params: paymentMethodParams }, async ({ params, user }) => {
  const customerId = await recordedStripeCustomer(user.userId);
  await customerCard(customerId, params.paymentMethodId);
  await removeCard(params.paymentMethodId);
  const view: PaymentMethodsView = { cards: await savedCards(customerId!) };
  return ok(view);
});

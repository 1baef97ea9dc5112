import { type PaymentMethodsView, paymentMethodParams } from '@marketplace/events/payments';
import { customerCard, makeDefaultCard, savedCards } from '../../adapters/stripe-cards';
import { recordedStripeCustomer } from '../../data/stripe-customers';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Makes one of the caller's saved cards the default; any other card is a 404. Answers the cards as they are now. */
export const handler = http({ params: paymentMethodParams }, async ({ params, user }) => {
  const customerId = await recordedStripeCustomer(user.userId);
  await customerCard(customerId, params.paymentMethodId);
  await makeDefaultCard(customerId!, params.paymentMethodId);
  const view: PaymentMethodsView = { cards: await savedCards(customerId!) };
  return ok(view);
});

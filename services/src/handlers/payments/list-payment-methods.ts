import type { PaymentMethodsView } from '@marketplace/events/payments';
import { savedCards } from '../../adapters/stripe-cards';
import { recordedStripeCustomer } from '../../data/stripe-customers';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** The photographer's saved cards, the default first; none before a payment saved one (no customer is made here). */
export const handler = http({}, async ({ user }) => {
  const customerId = await recordedStripeCustomer(user.userId);
  const view: PaymentMethodsView = { cards: customerId ? await savedCards(customerId) : [] };
  return ok(view);
});

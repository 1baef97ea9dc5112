import { type SavedCardView, savedCardMessages } from '@marketplace/events/payments';
import type Stripe from 'stripe';
import { HttpError, NotFound } from '../http/errors';
import { logger } from './logger';
import { callStripe, isMissingAtStripe, readablePaymentIntent, stripeCalls } from './stripe';

/**
 * Saved cards at Stripe: one Customer per photographer, the cards attached to it by payments made
 * with setup_future_usage, and one-click payments confirmed on the server with one of them.
 * Whether a card is the caller's is always Stripe's answer for the caller's own customer (the
 * customer id comes from the user record, never from a request).
 */
const unavailable = 'Saved cards are not available right now. Please try again in a moment.';
const paymentUnavailable =
  'Card payments are not available right now. Nothing was charged; please try again in a moment.';

/**
 * The photographer's Customer at Stripe. The key is the user's: two first payments at once, or a
 * retry, get the one customer Stripe made for the first (data/stripe-customers.ts keeps one id).
 */
export const createStripeCustomer = async (user: { userId: string; email: string; displayName?: string }) =>
  callStripe(unavailable, async () => {
    const customer = await (await stripeCalls()).customers.create(
      {
        email: user.email,
        ...(user.displayName ? { name: user.displayName } : {}),
        metadata: { userId: user.userId },
      },
      { idempotencyKey: `customer-${user.userId}` },
    );
    if (typeof customer?.id !== 'string') throw new HttpError(502, 'PAYMENT_PROVIDER_UNAVAILABLE', unavailable);
    return customer.id;
  });

const toView = (card: Stripe.PaymentMethod, defaultId: string | null): SavedCardView => ({
  id: card.id,
  brand: card.card?.brand ?? 'card',
  last4: card.card?.last4 ?? '',
  expMonth: card.card?.exp_month ?? 0,
  expYear: card.card?.exp_year ?? 0,
  isDefault: card.id === defaultId,
});

/**
 * The customer's cards, the default first. The default is the one the customer names; when it
 * names none (or a card since removed), the card saved last.
 */
export const savedCards = async (customerId: string): Promise<SavedCardView[]> =>
  callStripe(unavailable, async () => {
    const client = await stripeCalls();
    const [customer, list] = await Promise.all([
      client.customers.retrieve(customerId),
      client.customers.listPaymentMethods(customerId, { type: 'card', limit: 100 }),
    ]);
    const cards = (list?.data ?? []).filter((card) => card?.type === 'card');
    const named = 'deleted' in customer ? null : customer.invoice_settings?.default_payment_method;
    const namedId = typeof named === 'string' ? named : (named?.id ?? null);
    const defaultId = cards.some((card) => card.id === namedId) ? namedId : (cards[0]?.id ?? null);
    const views = cards.map((card) => toView(card, defaultId));
    return [...views.filter((card) => card.isDefault), ...views.filter((card) => !card.isDefault)];
  });

/** The card, when it is attached to this customer; a 404 in the same words for every other card. */
export const customerCard = async (customerId: string | undefined, paymentMethodId: string) => {
  if (!customerId) throw new NotFound(savedCardMessages.notFound);
  const card = await callStripe(unavailable, async () => {
    try {
      return await (await stripeCalls()).customers.retrievePaymentMethod(customerId, paymentMethodId);
    } catch (error) {
      if (isMissingAtStripe(error)) return null;
      throw error;
    }
  });
  if (!card || card.customer !== customerId) throw new NotFound(savedCardMessages.notFound);
  return card;
};

export const makeDefaultCard = (customerId: string, paymentMethodId: string) =>
  callStripe(unavailable, async () => {
    await (await stripeCalls()).customers.update(customerId, {
      invoice_settings: { default_payment_method: paymentMethodId },
    });
  });

export const removeCard = (paymentMethodId: string) =>
  callStripe(unavailable, async () => {
    await (await stripeCalls()).paymentMethods.detach(paymentMethodId);
  });

/**
 * Before the browser confirms a new card: the order's intent saves the card to the customer for
 * later payments, or no longer does (setup_future_usage unset when the box is unticked again).
 */
export const setCardSaving = async (
  paymentIntentId: string,
  { customerId, save }: { customerId?: string; save: boolean },
) =>
  callStripe(paymentUnavailable, async () =>
    readablePaymentIntent(
      await (await stripeCalls()).paymentIntents.update(
        paymentIntentId,
        save && customerId
          ? { customer: customerId, setup_future_usage: 'off_session' }
          : { setup_future_usage: '' as Stripe.PaymentIntentUpdateParams.SetupFutureUsage },
      ),
    ),
  );

/**
 * A one-click payment: the order's intent is given the customer (Stripe refuses a customer's card
 * on an intent without it) and confirmed with the card, on session, so a card that asks for
 * authentication answers requires_action with a page to send the browser to. A decline is a 422
 * in our words; Stripe down is the usual 502.
 */
export const confirmWithSavedCard = async ({
  paymentIntentId,
  customerId,
  paymentMethodId,
  returnUrl,
}: {
  paymentIntentId: string;
  customerId: string;
  paymentMethodId: string;
  returnUrl: string;
}) =>
  callStripe(paymentUnavailable, async () => {
    const client = await stripeCalls();
    await client.paymentIntents.update(paymentIntentId, { customer: customerId });
    try {
      return readablePaymentIntent(
        await client.paymentIntents.confirm(paymentIntentId, {
          payment_method: paymentMethodId,
          return_url: returnUrl,
        }),
      );
    } catch (error) {
      if ((error as { type?: string }).type === 'StripeCardError') {
        logger.info('saved card declined', {
          paymentIntentId,
          code: (error as { code?: string }).code,
          declineCode: (error as { decline_code?: string }).decline_code,
        });
        throw new HttpError(422, 'CARD_DECLINED', savedCardMessages.declined);
      }
      throw error;
    }
  });

/** Brand and last four of the card a payment was made with, for its receipt; null when Stripe cannot say. */
export const cardOfPayment = async (paymentMethod: unknown): Promise<{ brand: string; last4: string } | null> => {
  const fromObject = (value: unknown) => {
    const card = (value as { card?: { brand?: unknown; last4?: unknown } } | null)?.card;
    return typeof card?.brand === 'string' && typeof card.last4 === 'string'
      ? { brand: card.brand, last4: card.last4 }
      : null;
  };
  if (typeof paymentMethod !== 'string') return fromObject(paymentMethod);
  try {
    return fromObject(await (await stripeCalls()).paymentMethods.retrieve(paymentMethod));
  } catch (error) {
    // The receipt shows 'Card' without the number rather than holding up the payment.
    logger.warn('card of a payment not readable', { paymentMethod, error: error as Error });
    return null;
  }
};

import type { CreateOrderResponse } from '@marketplace/events/orders';
import { orderPaymentPath, type SavedCardView, savedCardMessages } from '@marketplace/events/payments';
import { describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_PUBLISHABLE_KEY } from '../local/stack';
import { retrievePaymentIntent } from '../src/adapters/stripe';
import { getOrder, registerOriginal } from '../src/data/orders';
import { getUser } from '../src/data/users';
import { stripe } from './stripe-sdk';
import { aPhotographer, as, type TestAccount } from './support';

const stripeUrl = () => process.env.STRIPE_API_URL!;
const siteUrl = () => process.env.SITE_URL!;

/** An unpaid order of two HDR photos ($16.00), both photos uploaded, so it can be paid. */
const aPayableOrder = async (photographer: TestAccount) => {
  const response = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 2 });
  if (response.status !== 201)
    throw new Error(`order not created: ${response.status} ${JSON.stringify(response.body)}`);
  const created = response.body as CreateOrderResponse;
  for (let i = 0; i < 2; i++) {
    await registerOriginal({
      order: (await getOrder(created.order.id))!,
      key: `orders/${created.order.id}/originals/photo-${i}.jpg`,
      filename: `photo-${i}.jpg`,
      size: 1000,
      contentType: 'image/jpeg',
      lastModified: new Date().toISOString(),
    });
  }
  return created;
};

const returnUrlOf = (orderId: string) => `${siteUrl()}${orderPaymentPath(orderId)}`;

/** The card form's confirm, straight to the Stripe fake with the publishable key, as Stripe.js does it. */
const confirmInBrowser = async ({ order, stripeClientSecret }: CreateOrderResponse, paymentMethod: string) => {
  const response = await fetch(`${stripeUrl()}/v1/payment_intents/${order.stripePaymentIntentId}/confirm`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${LOCAL_STRIPE_PUBLISHABLE_KEY}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      payment_method: paymentMethod,
      client_secret: stripeClientSecret,
      return_url: returnUrlOf(order.id),
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, never> };
};

/** The bank's page a confirm that requires action sends the browser to. */
const bankPageOf = (intent: object) =>
  (intent as { next_action: { redirect_to_url: { url: string } } }).next_action.redirect_to_url.url;

/** What the browser does on the bank's challenge page: a button, then back to the return URL. */
const authenticate = async (redirectUrl: string, outcome: 'complete' | 'fail') => {
  const response = await fetch(redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location')!);
};

const paymentSuccess = (photographer: TestAccount, created: CreateOrderResponse) =>
  as(photographer).post(`/api/orders/${created.order.id}/payment-success`, {
    paymentIntentId: created.order.stripePaymentIntentId,
  });

const saveCard = (photographer: TestAccount, orderId: string, saveCard = true) =>
  as(photographer).post(`/api/orders/${orderId}/payment/save-card`, { saveCard });

const payWithSavedCard = (photographer: TestAccount, orderId: string, paymentMethodId: string) =>
  as(photographer).post(`/api/orders/${orderId}/payment/saved-card`, {
    paymentMethodId,
    returnUrl: returnUrlOf(orderId),
  });

const savedCards = async (photographer: TestAccount) => {
  const response = await as(photographer).get('/api/payment-methods');
  expect(response.status).toBe(200);
  return response.body.cards as SavedCardView[];
};

const orderStatus = async (photographer: TestAccount, orderId: string) =>
  (await as(photographer).get(`/api/orders/${orderId}`)).body.status as string;

/** A photographer who paid one order with this test card and 'Save this card for next time' ticked. */
const aPhotographerWithASavedCard = async (testCard = 'pm_card_visa') => {
  const photographer = await aPhotographer();
  const first = await aPayableOrder(photographer);
  expect((await saveCard(photographer, first.order.id)).status).toBe(200);
  expect((await confirmInBrowser(first, testCard)).status).toBe(200);
  expect((await paymentSuccess(photographer, first)).status).toBe(200);
  const [card] = await savedCards(photographer);
  return { photographer, card: card! };
};

describe('saved cards', () => {
  it('makes one Stripe customer for a photographer however many first payments save a card at once', async () => {
    const photographer = await aPhotographer();
    const orders = await Promise.all(Array.from({ length: 4 }, () => aPayableOrder(photographer)));

    const answers = await Promise.all(orders.map((created) => saveCard(photographer, created.order.id)));

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const customerId = (await getUser(photographer.uid, { consistent: true }))?.stripeCustomerId;
    expect(customerId).toMatch(/^cus_/);
    const customers = await (await stripe()).customers.list({ email: photographer.email, limit: 10 });
    expect(customers.data.map((c) => c.id)).toEqual([customerId]);
    const intents = await Promise.all(orders.map((o) => retrievePaymentIntent(o.order.stripePaymentIntentId)));
    for (const intent of intents) {
      expect(intent).toMatchObject({ customer: customerId, setup_future_usage: 'off_session' });
    }
  });

  it('saves the card of a payment made with the box ticked, and not of one where it was unticked again', async () => {
    const photographer = await aPhotographer();
    const unticked = await aPayableOrder(photographer);
    await saveCard(photographer, unticked.order.id, true);
    expect((await saveCard(photographer, unticked.order.id, false)).status).toBe(200);
    await confirmInBrowser(unticked, 'pm_card_mastercard');
    await paymentSuccess(photographer, unticked);
    expect(await savedCards(photographer)).toEqual([]);

    const ticked = await aPayableOrder(photographer);
    await saveCard(photographer, ticked.order.id, true);
    await confirmInBrowser(ticked, 'pm_card_visa');
    expect((await paymentSuccess(photographer, ticked)).status).toBe(200);

    expect(await savedCards(photographer)).toEqual([
      expect.objectContaining({ brand: 'visa', last4: '4242', isDefault: true }),
    ]);
  });

  it('pays the next order in one click with the saved card, for the amount the server set', async () => {
    const { photographer, card } = await aPhotographerWithASavedCard();
    const next = await aPayableOrder(photographer);

    const paid = await payWithSavedCard(photographer, next.order.id, card.id);

    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({ status: 'paid', orderId: next.order.id });
    expect(await orderStatus(photographer, next.order.id)).toBe('paid');
    const intent = await retrievePaymentIntent(next.order.stripePaymentIntentId);
    expect(intent).toMatchObject({ status: 'succeeded', amount: 1600, payment_method: card.id });
  });

  it('sends a card that asks for authentication through the challenge, then pays', async () => {
    const photographer = await aPhotographer();
    const first = await aPayableOrder(photographer);
    await saveCard(photographer, first.order.id);
    const confirmed = await confirmInBrowser(first, 'pm_card_authenticationRequired');
    expect(confirmed.body).toMatchObject({ status: 'requires_action' });
    const back = await authenticate(bankPageOf(confirmed.body), 'complete');
    expect(back.pathname).toBe(orderPaymentPath(first.order.id));
    expect(back.searchParams.get('redirect_status')).toBe('succeeded');
    expect((await paymentSuccess(photographer, first)).status).toBe(200);
    const [card] = await savedCards(photographer);
    expect(card).toMatchObject({ brand: 'visa', last4: '3155' });

    const next = await aPayableOrder(photographer);
    const asked = await payWithSavedCard(photographer, next.order.id, card!.id);
    expect(asked.status).toBe(200);
    expect(asked.body.status).toBe('requires_action');
    expect(await orderStatus(photographer, next.order.id)).toBe('pending_payment');

    const returned = await authenticate(asked.body.redirectUrl, 'complete');
    expect(`${returned.origin}${returned.pathname}`).toBe(returnUrlOf(next.order.id));
    expect(returned.searchParams.get('payment_intent')).toBe(next.order.stripePaymentIntentId);
    const checked = await as(photographer).post(`/api/orders/${next.order.id}/payment-success`, {
      paymentIntentId: returned.searchParams.get('payment_intent'),
    });
    expect(checked.status).toBe(200);
    expect(checked.body.status).toBe('paid');
  });

  it('leaves the order unpaid when the authentication fails', async () => {
    const photographer = await aPhotographer();
    const first = await aPayableOrder(photographer);
    await saveCard(photographer, first.order.id);
    const confirmed = await confirmInBrowser(first, 'pm_card_authenticationRequired');
    await authenticate(bankPageOf(confirmed.body), 'complete');
    await paymentSuccess(photographer, first);
    const [card] = await savedCards(photographer);
    const next = await aPayableOrder(photographer);

    const asked = await payWithSavedCard(photographer, next.order.id, card!.id);
    const returned = await authenticate(asked.body.redirectUrl, 'fail');
    const checked = await paymentSuccess(photographer, next);

    expect(returned.searchParams.get('redirect_status')).toBe('failed');
    expect(checked.status).toBe(409);
    expect(await orderStatus(photographer, next.order.id)).toBe('pending_payment');
    // Another card still pays it.
    expect((await confirmInBrowser(next, 'pm_card_visa')).status).toBe(200);
    expect((await paymentSuccess(photographer, next)).status).toBe(200);
  });

  it('says a declined saved card was declined, charges nothing and lets another card pay', async () => {
    const { photographer } = await aPhotographerWithASavedCard();
    const customer = (await getUser(photographer.uid, { consistent: true }))!.stripeCustomerId!;
    // A card that was fine when saved and is declined on every charge since (Stripe's 0341).
    const declining = await (await stripe()).paymentMethods.attach('pm_card_chargeCustomerFail', { customer });
    const next = await aPayableOrder(photographer);

    const declined = await payWithSavedCard(photographer, next.order.id, declining.id);

    expect(declined.status).toBe(422);
    expect(declined.body).toEqual({ error: 'CARD_DECLINED', message: savedCardMessages.declined });
    expect(await orderStatus(photographer, next.order.id)).toBe('pending_payment');
    expect((await confirmInBrowser(next, 'pm_card_visa')).status).toBe(200);
    expect((await paymentSuccess(photographer, next)).status).toBe(200);
  });

  it("answers 404 for another photographer's card, whether to pay with it, make it default or remove it", async () => {
    const { photographer: owner, card } = await aPhotographerWithASavedCard();
    const { photographer: stranger } = await aPhotographerWithASavedCard();
    const strangersOrder = await aPayableOrder(stranger);

    const paid = await payWithSavedCard(stranger, strangersOrder.order.id, card.id);
    const madeDefault = await as(stranger).put(`/api/payment-methods/${card.id}/default`);
    const removed = await as(stranger).delete(`/api/payment-methods/${card.id}`);

    for (const answer of [paid, madeDefault, removed]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'NOT_FOUND', message: savedCardMessages.notFound });
    }
    expect(await orderStatus(stranger, strangersOrder.order.id)).toBe('pending_payment');
    expect(await savedCards(owner)).toEqual([expect.objectContaining({ id: card.id })]);
  });

  it('makes another card the default, and removes a card so it can no longer pay', async () => {
    const { photographer, card: first } = await aPhotographerWithASavedCard('pm_card_visa');
    const order = await aPayableOrder(photographer);
    await saveCard(photographer, order.order.id);
    await confirmInBrowser(order, 'pm_card_mastercard');
    await paymentSuccess(photographer, order);
    const cards = await savedCards(photographer);
    expect(cards).toHaveLength(2);
    const second = cards.find((c) => c.id !== first.id)!;

    const madeDefault = await as(photographer).put(`/api/payment-methods/${first.id}/default`);
    expect(madeDefault.status).toBe(200);
    expect(madeDefault.body.cards[0]).toMatchObject({ id: first.id, isDefault: true });

    const removed = await as(photographer).delete(`/api/payment-methods/${first.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.cards).toEqual([expect.objectContaining({ id: second.id, isDefault: true })]);
    const next = await aPayableOrder(photographer);
    expect((await payWithSavedCard(photographer, next.order.id, first.id)).status).toBe(404);
    expect((await as(photographer).delete(`/api/payment-methods/${first.id}`)).status).toBe(404);
  });

  it("accepts only the order's own payment page as the way back, and charges nothing otherwise", async () => {
    const { photographer, card } = await aPhotographerWithASavedCard();
    const next = await aPayableOrder(photographer);
    const elsewhere = ['https://evil.example/steal', `${siteUrl()}/orders/${next.order.id}`, `${siteUrl()}/dashboard`];

    for (const returnUrl of elsewhere) {
      const answer = await as(photographer).post(`/api/orders/${next.order.id}/payment/saved-card`, {
        paymentMethodId: card.id,
        returnUrl,
      });
      expect(answer.status, returnUrl).toBe(400);
      expect(answer.body.message).toBe(savedCardMessages.wrongReturnUrl);
    }
    expect((await retrievePaymentIntent(next.order.stripePaymentIntentId)).status).toBe('requires_payment_method');
  });

  it('lists no cards, and makes no customer, for a photographer who never saved one', async () => {
    const photographer = await aPhotographer();
    expect(await savedCards(photographer)).toEqual([]);
    expect((await getUser(photographer.uid, { consistent: true }))?.stripeCustomerId).toBeUndefined();
  });
});

import type { OrderPaymentView } from '@marketplace/events/orders';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browserNavigation } from '../../../components/payment/payment-flow';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';

const LOCAL_STRIPE_URL = 'http://127.0.0.1:12111';
const CONFIRM_PATH = '/v1/payment_intents/pi_123/confirm';

const payable: OrderPaymentView = {
  order: { id: 'order-1', orderNumber: 1042, name: '12 Oak Street', photoCount: 4, totalAmountCents: 3200 },
  stripePaymentIntentId: 'pi_123',
  stripeClientSecret: 'pi_123_secret_abc',
};

/** The local Stripe fake, answering the way Stripe does for the two test cards. */
const answerLikeStripe = (request: { body: unknown }) => {
  const form = request.body as URLSearchParams;
  if (form.get('payment_method') === 'pm_card_chargeDeclined') {
    return {
      status: 402,
      body: { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } },
    };
  }
  return { status: 200, body: { id: 'pi_123', object: 'payment_intent', status: 'succeeded' } };
};

async function openPaymentPage() {
  const view = renderApp('/orders/order-1/payment');
  await screen.findByRole('heading', { name: 'Complete Payment' }, { timeout: 5000 });
  return view;
}

async function payWithCard(view: ReturnType<typeof renderApp>, cardNumber: string) {
  await view.user.type(screen.getByRole('textbox', { name: 'Card number' }), cardNumber);
  await view.user.type(screen.getByRole('textbox', { name: 'Expiry' }), '1230');
  await view.user.type(screen.getByRole('textbox', { name: 'CVC' }), '123');
  await view.user.click(screen.getByRole('button', { name: 'Pay $32.00' }));
}

/** The outcome is shown twice: inline on the payment step and as a toast. */
async function expectPaymentMessage(message: string) {
  await waitFor(() =>
    expect(screen.getAllByRole('alert').filter((alert) => alert.textContent?.includes(message))).toHaveLength(2),
  );
}

describe('Order payment page', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.stubEnv('VITE_LOCAL_STRIPE_URL', LOCAL_STRIPE_URL);
    vi.stubEnv('VITE_LOCAL_STRIPE_PUBLISHABLE_KEY', 'pk_test_local');
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', '/api/orders/order-1/payment', { status: 200, body: payable });
    fakeApi.on('POST', CONFIRM_PATH, answerLikeStripe);
    fakeApi.on('POST', '/api/orders/order-1/payment-success', { status: 200, body: { id: 'order-1', status: 'paid' } });
  });

  afterEach(() => vi.unstubAllEnvs());

  it('shows the order, its photo count, the total and the local test-card note', async () => {
    await openPaymentPage();
    expect(screen.getByRole('heading', { name: '12 Oak Street' })).toBeInTheDocument();
    expect(screen.getByText(/Order #1042 · 4 photos to edit/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay $32.00' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Card' })).toBeInTheDocument();
    expect(screen.getByText(/Local test card form: use 4242 4242 4242 4242/)).toBeInTheDocument();
  });

  it('pays with 4242 4242 4242 4242 as pm_card_visa, tells the server, and goes to the dashboard', async () => {
    const view = await openPaymentPage();
    await payWithCard(view, '4242424242424242');
    expect(await screen.findByText('Payment completed successfully!')).toBeInTheDocument();
    const [confirm] = fakeApi.requestsTo('POST', CONFIRM_PATH);
    const form = confirm?.body as URLSearchParams;
    expect(form.get('payment_method')).toBe('pm_card_visa');
    expect(form.get('client_secret')).toBe('pi_123_secret_abc');
    expect(form.get('key')).toBe('pk_test_local');
    expect(fakeApi.requestsTo('POST', '/api/orders/order-1/payment-success')[0]?.body).toEqual({
      paymentIntentId: 'pi_123',
    });
    // The dashboard's code loads on demand before the router settles there.
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard'), { timeout: 5000 });
  });

  it('shows the declined message for 4000 0000 0000 0002 and stays on the payment step', async () => {
    const view = await openPaymentPage();
    await payWithCard(view, '4000 0000 0000 0002');
    await expectPaymentMessage('Your card was declined.');
    expect((fakeApi.requestsTo('POST', CONFIRM_PATH)[0]?.body as URLSearchParams).get('payment_method')).toBe(
      'pm_card_chargeDeclined',
    );
    expect(fakeApi.requestsTo('POST', '/api/orders/order-1/payment-success')).toHaveLength(0);
    expect(screen.getByRole('heading', { name: 'Complete Payment' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay $32.00' })).toBeEnabled();
  });

  it('refuses a card number that is not a test card before calling Stripe', async () => {
    const view = await openPaymentPage();
    await payWithCard(view, '1234123412341234');
    await expectPaymentMessage('Your card number is invalid.');
    expect(fakeApi.requestsTo('POST', CONFIRM_PATH)).toHaveLength(0);
  });

  it('says the payment was not completed when Stripe does not report success', async () => {
    fakeApi.on('POST', CONFIRM_PATH, { status: 200, body: { id: 'pi_123', status: 'requires_action' } });
    const view = await openPaymentPage();
    await payWithCard(view, '4242424242424242');
    await expectPaymentMessage('Payment was not completed');
    expect(fakeApi.requestsTo('POST', '/api/orders/order-1/payment-success')).toHaveLength(0);
  });

  it('asks to contact support when the card was charged but the order could not be updated', async () => {
    fakeApi.on('POST', '/api/orders/order-1/payment-success', { status: 500 });
    const view = await openPaymentPage();
    await payWithCard(view, '4242424242424242');
    await expectPaymentMessage('Payment completed but order update failed. Please contact support.');
  });

  it('says the form is not ready when no card service is configured', async () => {
    vi.stubEnv('VITE_LOCAL_STRIPE_URL', '');
    const view = await openPaymentPage();
    await payWithCard(view, '4242424242424242');
    await expectPaymentMessage('Payment form is not ready yet. Please wait a moment and try again.');
    expect(fakeApi.requestsTo('POST', CONFIRM_PATH)).toHaveLength(0);
  });

  it("explains that an order already paid cannot be paid again, in the server's words", async () => {
    fakeApi.on('GET', '/api/orders/order-1/payment', {
      status: 409,
      body: { error: 'CONFLICT', message: 'This order has already been paid' },
    });
    renderApp('/orders/order-1/payment');
    expect(await screen.findByText('This order cannot be paid', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('This order has already been paid')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View the order' })).toHaveAttribute('href', '/orders/order-1');
  });

  it('says the order was not found', async () => {
    fakeApi.on('GET', '/api/orders/order-1/payment', {
      status: 404,
      body: { error: 'NOT_FOUND', message: 'Not found' },
    });
    renderApp('/orders/order-1/payment');
    expect(await screen.findByText('Order not found', {}, { timeout: 5000 })).toBeInTheDocument();
  });
});

const visa = { id: 'pm_visa', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, isDefault: true };

describe('Order payment page with saved cards', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.stubEnv('VITE_LOCAL_STRIPE_URL', LOCAL_STRIPE_URL);
    vi.stubEnv('VITE_LOCAL_STRIPE_PUBLISHABLE_KEY', 'pk_test_local');
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', '/api/orders/order-1/payment', { status: 200, body: payable });
    fakeApi.on('GET', '/api/payment-methods', { status: 200, body: { cards: [visa] } });
    fakeApi.on('POST', CONFIRM_PATH, answerLikeStripe);
    fakeApi.on('POST', '/api/orders/order-1/payment-success', { status: 200, body: { id: 'order-1', status: 'paid' } });
  });

  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  const oneClickButton = () => screen.findByRole('button', { name: 'Pay $32.00 with Visa •••• 4242' });

  it('offers the default saved card as one click, and pays with it on the server', async () => {
    fakeApi.on('POST', '/api/orders/order-1/payment/saved-card', {
      status: 200,
      body: { status: 'paid', orderId: 'order-1' },
    });
    const view = await openPaymentPage();
    expect(screen.getByText('Your default card · expires 12/30')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use another card' })).toBeInTheDocument();

    await view.user.click(await oneClickButton());

    expect(await screen.findByText('Payment completed successfully!')).toBeInTheDocument();
    const [request] = fakeApi.requestsTo('POST', '/api/orders/order-1/payment/saved-card');
    expect(request?.body).toEqual({
      paymentMethodId: 'pm_visa',
      returnUrl: 'http://localhost:3000/orders/order-1/payment',
    });
    expect(fakeApi.requestsTo('POST', CONFIRM_PATH)).toHaveLength(0);
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard'), { timeout: 5000 });
  });

  it("sends the browser to the bank's page when the saved card asks for authentication", async () => {
    const leaveFor = vi.spyOn(browserNavigation, 'leaveFor').mockImplementation(() => {});
    fakeApi.on('POST', '/api/orders/order-1/payment/saved-card', {
      status: 200,
      body: { status: 'requires_action', redirectUrl: 'http://127.0.0.1:12111/__authenticate/pi_123' },
    });
    const view = await openPaymentPage();
    await view.user.click(await oneClickButton());
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith('http://127.0.0.1:12111/__authenticate/pi_123'));
    expect(fakeApi.requestsTo('POST', '/api/orders/order-1/payment-success')).toHaveLength(0);
  });

  it('says a declined saved card was declined and offers the card form instead', async () => {
    fakeApi.on('POST', '/api/orders/order-1/payment/saved-card', {
      status: 422,
      body: { error: 'CARD_DECLINED', message: 'Your card was declined. Please use another card.' },
    });
    const view = await openPaymentPage();
    await view.user.click(await oneClickButton());
    await expectPaymentMessage('Your card was declined. Please use another card.');
    expect(screen.getByRole('textbox', { name: 'Card number' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use saved card' })).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/orders/order-1/payment-success')).toHaveLength(0);
  });

  it("tells the server to save the card before it is confirmed when 'Save this card for next time' is ticked", async () => {
    fakeApi.on('GET', '/api/payment-methods', { status: 200, body: { cards: [] } });
    fakeApi.on('POST', '/api/orders/order-1/payment/save-card', { status: 200, body: { saveCard: true } });
    const view = await openPaymentPage();
    await view.user.click(await screen.findByRole('checkbox', { name: 'Save this card for next time' }));
    await payWithCard(view, '4242424242424242');
    expect(await screen.findByText('Payment completed successfully!')).toBeInTheDocument();
    const saving = fakeApi.requestsTo('POST', '/api/orders/order-1/payment/save-card');
    expect(saving.map((r) => r.body)).toEqual([{ saveCard: true }]);
    const calls = fakeApi.fetch.mock.calls.map(
      ([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`,
    );
    expect(calls.indexOf('POST /api/orders/order-1/payment/save-card')).toBeLessThan(
      calls.indexOf(`POST ${CONFIRM_PATH}`),
    );
    expect((fakeApi.requestsTo('POST', CONFIRM_PATH)[0]?.body as URLSearchParams).get('return_url')).toBe(
      'http://localhost:3000/orders/order-1/payment',
    );
  });

  it('comes back from a passed authentication, checks the payment with the server and goes on', async () => {
    const view = renderApp(
      '/orders/order-1/payment?payment_intent=pi_123&payment_intent_client_secret=s&redirect_status=succeeded',
    );
    expect(await screen.findByText('Payment completed successfully!', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/orders/order-1/payment-success')[0]?.body).toEqual({
      paymentIntentId: 'pi_123',
    });
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard'), { timeout: 5000 });
  });

  it('comes back from a failed authentication, says nothing was charged and shows the card form', async () => {
    renderApp('/orders/order-1/payment?payment_intent=pi_123&payment_intent_client_secret=s&redirect_status=failed');
    expect(
      await screen.findByText(
        'Payment was not completed. Your card could not be authenticated, so nothing was charged. Please try again or use another card.',
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Card number' })).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/orders/order-1/payment-success')).toHaveLength(0);
  });
});

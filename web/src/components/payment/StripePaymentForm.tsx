import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { type RefObject, useEffect, useState } from 'react';
import type { CardSubmitter } from './payment-flow';

// One Stripe.js per page load, fetched only when a card form with a publishable key first shows.
let stripePromise: Promise<Stripe | null> | null = null;
const stripeFor = (publishableKey: string) => {
  stripePromise ??= loadStripe(publishableKey);
  return stripePromise;
};

function PaymentElementSubmitter({ submitterRef }: { submitterRef: RefObject<CardSubmitter | null> }) {
  const stripe = useStripe();
  const elements = useElements();
  const [elementReady, setElementReady] = useState(false);

  useEffect(() => {
    submitterRef.current = {
      isReady: () => Boolean(stripe && elements && elementReady),
      validate: async () => (elements ? elements.submit() : {}),
      confirm: async (clientSecret, { returnUrl }) => {
        if (!stripe || !elements) return { error: {} };
        // A payment method that must leave the page comes back to the order's payment page, which checks it.
        const result = await stripe.confirmPayment({
          elements,
          clientSecret,
          redirect: 'if_required',
          confirmParams: { return_url: returnUrl },
        });
        return result.error
          ? { error: { message: result.error.message } }
          : { paymentIntent: { id: result.paymentIntent.id, status: result.paymentIntent.status } };
      },
    };
    return () => {
      submitterRef.current = null;
    };
  }, [stripe, elements, elementReady, submitterRef]);

  return <PaymentElement options={{ layout: 'tabs' }} onReady={() => setElementReady(true)} />;
}

/** Stripe's Payment Element for the order's PaymentIntent, in a tabs layout. */
export function StripePaymentForm({
  publishableKey,
  clientSecret,
  submitterRef,
}: {
  publishableKey: string;
  clientSecret: string;
  submitterRef: RefObject<CardSubmitter | null>;
}) {
  return (
    // Elements reads the client secret once, so another order needs a fresh instance.
    <Elements key={clientSecret} stripe={stripeFor(publishableKey)} options={{ clientSecret }}>
      <PaymentElementSubmitter submitterRef={submitterRef} />
    </Elements>
  );
}

import Stripe from 'stripe';
import { stripeKeys } from '../src/adapters/stripe';
import { config } from '../src/config';

let client: Promise<Stripe> | undefined;

/**
 * The whole `stripe` package as a client, for tests that act as the card form or the dashboard
 * would (confirming a payment, listing refunds), with the keys and the Stripe address the
 * functions use. The functions themselves call Stripe through adapters/stripe-api.ts.
 */
export const stripe = () => {
  if (client) return client;
  client = stripeKeys().then(({ secretKey }) => {
    const apiUrl = config().STRIPE_API_URL;
    const target = apiUrl ? new URL(apiUrl) : undefined;
    return new Stripe(secretKey, {
      maxNetworkRetries: 2,
      timeout: 8000,
      ...(target
        ? {
            host: target.hostname,
            port: Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
            protocol: target.protocol.replace(':', '') as 'http' | 'https',
          }
        : {}),
    });
  });
  client.catch(() => {
    client = undefined;
  });
  return client;
};

import { createHmac, timingSafeEqual } from 'node:crypto';

/** How old a signed event may be, as the `stripe` package allows: older is taken for a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Stripe's webhook signature (https://docs.stripe.com/webhooks#verify-manually): the
 * `Stripe-Signature` header holds `t=<unix seconds>` and one or more `v1=<hex>`, each an
 * HMAC-SHA256 of `<t>.<the raw body>` under the endpoint's secret (several while a secret is
 * rolled). The parsed body when one of them matches and `t` is recent, otherwise null: a wrong
 * secret, an altered body, a stale timestamp, a malformed header or a body that is not JSON.
 */
export const verifyStripeSignature = (
  payload: string | Buffer,
  header: string,
  secret: string,
  nowMs = Date.now(),
): unknown => {
  if (!secret.trim() || payload.length === 0) return null;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const separator = item.indexOf('=');
    if (separator < 0) continue;
    const [key, value] = [item.slice(0, separator), item.slice(separator + 1)];
    if (key === 't') timestamp = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    else if (key === 'v1') signatures.push(value);
  }
  if (timestamp === undefined || !Number.isSafeInteger(timestamp) || !signatures.length) return null;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex'));
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature);
    // timingSafeEqual refuses buffers of different lengths; a length says nothing about the secret.
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) return null;
  if (Math.floor(nowMs / 1000) - timestamp > WEBHOOK_TOLERANCE_SECONDS) return null;
  try {
    return JSON.parse(payload.toString());
  } catch {
    return null;
  }
};

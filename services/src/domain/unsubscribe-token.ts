import { createHmac, timingSafeEqual } from 'node:crypto';
import { isSwitchableEmailKind, type SwitchableEmailKind } from '@marketplace/events/notifications';

/**
 * The token of an email's unsubscribe link: which account, which kind of email, and until when the
 * link works, signed with HMAC-SHA256 under the stack's unsubscribe key. It is
 * `base64url(payload).base64url(signature)`, safe in a URL as it is. Nothing is stored: the
 * signature is the proof, the expiry bounds how long a forwarded email can switch the kind off.
 */
export const UNSUBSCRIBE_TOKEN_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

interface Payload {
  /** The account. */
  u: string;
  /** The email kind. */
  k: SwitchableEmailKind;
  /** Expiry, seconds since the epoch. */
  e: number;
}

export type UnsubscribeCheck =
  | { valid: true; userId: string; kind: SwitchableEmailKind; expiresAt: Date }
  | { valid: false; reason: 'invalid' | 'expired' };

const signature = (key: string, payload: string) =>
  createHmac('sha256', key).update(`unsubscribe.v1.${payload}`).digest();

export const signUnsubscribeToken = (
  key: string,
  { userId, kind, now = new Date() }: { userId: string; kind: SwitchableEmailKind; now?: Date },
) => {
  const payload: Payload = {
    u: userId,
    k: kind,
    e: Math.floor((now.getTime() + UNSUBSCRIBE_TOKEN_DAYS * DAY_MS) / 1000),
  };
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${encoded}.${signature(key, encoded).toString('base64url')}`;
};

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Checks the signature first (a tampered token says nothing else), then the expiry. */
export const checkUnsubscribeToken = (key: string, token: string, now = new Date()): UnsubscribeCheck => {
  const invalid = { valid: false, reason: 'invalid' } as const;
  const [encoded, signed, ...rest] = token.split('.');
  if (!encoded || !signed || rest.length > 0 || !BASE64URL.test(encoded) || !BASE64URL.test(signed)) return invalid;
  const expected = signature(key, encoded);
  const given = Buffer.from(signed, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid;
  let payload: Partial<Payload>;
  try {
    payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Partial<Payload>;
  } catch {
    return invalid;
  }
  if (
    typeof payload.u !== 'string' ||
    !payload.u ||
    typeof payload.k !== 'string' ||
    !isSwitchableEmailKind(payload.k) ||
    typeof payload.e !== 'number' ||
    !Number.isFinite(payload.e)
  ) {
    return invalid;
  }
  const expiresAt = new Date(payload.e * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { valid: false, reason: 'expired' };
  return { valid: true, userId: payload.u, kind: payload.k, expiresAt };
};

import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { QueueName } from '@marketplace/events/order-events';
import type { Role } from '@marketplace/events/roles';
import type { SQSEvent } from 'aws-lambda';
import { ulid } from 'ulid';
import { marketplace } from '../src/data/entities';
import { createOrder, nextOrderNumber } from '../src/data/orders';
import { setRoles } from '../src/data/users';

/** Builders for integration tests: real accounts in the auth emulator, real calls through the local gateway. */
const apiUrl = () => process.env.API_URL!;
const authUrl = () => `http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1`;

export interface TestAccount {
  uid: string;
  email: string;
  token: string;
}

const identityToolkit = async (call: string, body: object) => {
  const response = await fetch(`${authUrl()}/${call}?key=test-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { idToken: string; localId: string; error?: { message: string } };
  if (!response.ok) throw new Error(`auth emulator ${call}: ${json.error?.message}`);
  return json;
};

export const uniqueEmail = (label = 'user') => `${label}-${randomUUID().slice(0, 8)}@example.test`;

/**
 * The ids of the accounts this test file made (each file runs in its own module scope), so a
 * file can check the counters of its own accounts while other files write beside it.
 */
export const accountsMadeHere = new Set<string>();

/** A brand-new identity at the auth emulator (no marketplace record until its first API call). */
export const aNewAccount = async ({
  displayName,
  email = uniqueEmail(),
}: {
  displayName?: string;
  email?: string;
} = {}) => {
  const created = await identityToolkit('accounts:signUp', {
    email,
    password: 'test-password',
    returnSecureToken: true,
  });
  accountsMadeHere.add(created.localId);
  if (!displayName) return { uid: created.localId, email, token: created.idToken };
  await identityToolkit('accounts:update', { idToken: created.idToken, displayName, returnSecureToken: true });
  // Sign in again so the token carries the name claim, as a browser's token would after sign-up.
  const signedIn = await identityToolkit('accounts:signInWithPassword', {
    email,
    password: 'test-password',
    returnSecureToken: true,
  });
  return { uid: created.localId, email, token: signedIn.idToken };
};

export const signIn = async (email: string, password: string) =>
  (await identityToolkit('accounts:signInWithPassword', { email, password, returnSecureToken: true })).idToken;

/** A signed-in user who has used the marketplace once, so their record exists. */
export const aPhotographer = async (options: { displayName?: string } = {}) => {
  const account = await aNewAccount(options);
  const response = await as(account).get('/api/auth/me');
  if (response.status !== 200) throw new Error(`first sign-in failed: ${response.status}`);
  return account;
};

/** A signed-in user holding exactly these roles (an editor, an admin, ...). */
export const aUserWithRoles = async (roles: Role[], options: { displayName?: string } = {}) => {
  const account = await aPhotographer(options);
  await setRoles(account.uid, roles);
  return account;
};

export const anEditor = (options: { displayName?: string } = {}) => aUserWithRoles(['editor'], options);

/** Polls until `done` holds (or the time is up) and returns the last value read. */
export const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
};

export const call = async (
  path: string,
  init: { method?: string; token?: string; body?: unknown; rawBody?: string } = {},
) => {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined || init.rawBody !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${apiUrl()}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
};

export const as = (account: { token: string }) => ({
  get: (path: string) => call(path, { token: account.token }),
  post: (path: string, body?: unknown) => call(path, { method: 'POST', token: account.token, body }),
  patch: (path: string, body?: unknown) => call(path, { method: 'PATCH', token: account.token, body }),
  put: (path: string, body?: unknown) => call(path, { method: 'PUT', token: account.token, body }),
  delete: (path: string) => call(path, { method: 'DELETE', token: account.token }),
  send: (method: string, path: string, rawBody: string) => call(path, { method, token: account.token, rawBody }),
});

/** An unsigned token like the emulator's, with claims of our choosing (for the authorizer's checks). */
export const forgedToken = (claims: Record<string, unknown>) => {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({
    iss: 'https://securetoken.google.com/demo-marketplace',
    aud: 'demo-marketplace',
    sub: randomUUID(),
    iat: now,
    exp: now + 3600,
    ...claims,
  })}.`;
};

export const db = () => marketplace().entities;

/**
 * A local control of the SQS stand-in (Local.ExpireVisibility, Local.Redrive, Local.Sent,
 * Local.Status, Local.Messages, Local.FailNextSends: services/local/queue-runner.ts).
 */
export const sqsControl = async (action: string, input: Record<string, unknown> = {}) => {
  const response = await fetch(process.env.SQS_ENDPOINT!, {
    method: 'POST',
    headers: { 'x-amz-target': `Local.${action}`, 'content-type': 'application/x-amz-json-1.0' },
    body: JSON.stringify(input),
  });
  if (!response.ok) throw new Error(`Local.${action}: ${response.status} ${await response.text()}`);
  return response.json();
};

/** The event a worker of this queue gets from SQS for these message bodies, for calling its handler directly. */
export const sqsEvent = (queue: QueueName, bodies: readonly string[]): SQSEvent => ({
  Records: bodies.map((body) => ({
    messageId: randomUUID(),
    receiptHandle: randomUUID(),
    body,
    attributes: {} as SQSEvent['Records'][number]['attributes'],
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queue}`,
    awsRegion: 'us-east-1',
  })),
});

/**
 * What a pipe delivers for a new outbox item: its stream record, an INSERT with the item as its new
 * image (the outbox's entity name set, as ElectroDB stores it). A test delivers an event of its own
 * making, or one the table holds, to a worker this way.
 */
export const outboxStreamRecord = (item: Record<string, unknown>) => ({
  eventID: randomUUID(),
  eventName: 'INSERT',
  dynamodb: { NewImage: marshall({ __edb_e__: 'outboxEvent', ...item }, { removeUndefinedValues: true }) },
});

/**
 * An order awaiting payment, written through the data layer (no card provider involved): HDR
 * photos at $8 each, two unless told otherwise.
 */
export const aDataLayerOrder = async (
  photographer: { uid: string },
  { orderId = ulid(), photoCount = 2, photographerName = 'Pat Photographer' } = {},
) =>
  createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: photographerName },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount },
    totalAmountCents: photoCount * 800,
    stripePaymentIntentId: `pi_test_${orderId}`,
  });

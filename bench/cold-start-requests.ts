import { createHmac, randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { defaultEditingStyle, styleReferencePrefix } from '@marketplace/events/editing-style';
import { editedPrefix, originalsPrefix } from '@marketplace/events/orders';
import { orderPaymentPath } from '@marketplace/events/payments';
import { type ProfilePictureKind, profilePicturePrefix } from '@marketplace/events/profile';
import type { Role } from '@marketplace/events/roles';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import sharp from 'sharp';
import { ulid } from 'ulid';
import {
  LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET,
  LOCAL_STRIPE_PUBLISHABLE_KEY,
  LOCAL_STRIPE_WEBHOOK_SECRET,
  PROJECT_ID,
} from '../services/local/stack';
import { stripeApi } from '../services/src/adapters/stripe-api';
import { config } from '../services/src/config';
import { requestEmailChange } from '../services/src/data/account-security';
import { createAddOn } from '../services/src/data/add-ons';
import { assignOrder } from '../services/src/data/admin-assignment';
import { deleteUser } from '../services/src/data/admin-users';
import { orderBillingEntries } from '../services/src/data/billing';
import { writeEditorRates } from '../services/src/data/editor-rates';
import { marketplace } from '../services/src/data/entities';
import { submitFeedback } from '../services/src/data/feedback';
import { createInvitation } from '../services/src/data/invitations';
import { createJobType } from '../services/src/data/job-types';
import {
  claimOrder,
  completeOrder,
  createOrder,
  getOrder,
  listImages,
  markOrderPaid,
  nextOrderNumber,
  type OrderRecord,
  registerEdited,
  registerOriginal,
} from '../services/src/data/orders';
import { startPayoutOnboarding } from '../services/src/data/payout-accounts';
import { createPricedOrder } from '../services/src/data/priced-order';
import { createShareLink } from '../services/src/data/share-links';
import { ensureStripeCustomer } from '../services/src/data/stripe-customers';
import { createUserOnce, getUser, setProfilePicture } from '../services/src/data/users';
import { signUnsubscribeToken } from '../services/src/domain/unsubscribe-token';
import { type RouteDefinition, routeKey, routes } from '../services/src/routes';
import { stripe } from '../services/test/stripe-sdk';

/**
 * The first request of each route as a signed-in user (or, for a public route, anyone) makes it
 * after a cold start: a real API Gateway HTTP API (payload 2.0) event, in the shape the local
 * gateway builds (services/local/gateway.ts), for a caller the route allows, on records seeded in
 * the local stack so that the call does its real work and answers 2xx. A route whose call can do
 * its work only once (a claim, a payment, a role change) gets a record of its own for every run.
 * The records are written through the data layer, as the journeys would leave them, and the
 * Stripe ones are real payment intents at the Stripe fake.
 */
export interface Account {
  userId: string;
  email: string;
  displayName: string;
}

/** What a route is called with: the path (with its query), the caller, and a JSON or multipart body. */
interface Call {
  path: string;
  caller?: Account;
  body?: unknown;
  form?: FormData;
  /** A body sent as is (the Stripe webhook's). */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** A route's first call in each run: seeded for `count` runs, then built just before it is made. */
export interface RouteRequest {
  route: RouteDefinition;
  /** The answer that shows the work was done: 2xx unless given. */
  expect?: number;
  event: (run: number) => Promise<APIGatewayProxyEventV2>;
}

/** API Gateway passes JWT claims as strings: these are a Firebase ID token's. */
const claimsOf = (account: Account) => {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: `https://securetoken.google.com/${PROJECT_ID}`,
    aud: PROJECT_ID,
    auth_time: String(now - 60),
    user_id: account.userId,
    sub: account.userId,
    iat: String(now - 60),
    exp: String(now + 3540),
    email: account.email,
    email_verified: 'true',
    firebase: JSON.stringify({ identities: { email: [account.email] }, sign_in_provider: 'password' }),
    name: account.displayName,
  };
};

/** An unsigned ID token as the auth emulator issues them (the ones complete-signup checks). */
const emulatorIdToken = (account: Account) => {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const { firebase, ...claims } = claimsOf(account);
  const numeric = { ...claims, auth_time: Number(claims.auth_time), iat: Number(claims.iat), exp: Number(claims.exp) };
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ ...numeric, email_verified: true, firebase: JSON.parse(firebase) })}.`;
};

const pathParametersOf = (route: RouteDefinition, pathname: string) => {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const parameter = /^\{(\w+)(\+?)\}$/.exec(segment);
      if (!parameter) return segment;
      names.push(parameter[1]!);
      return parameter[2] ? '(.+)' : '([^/]+)';
    })
    .join('/');
  const found = new RegExp(`^${source}$`).exec(pathname);
  if (!found) throw new Error(`${pathname} is no path of ${routeKey(route)}`);
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1]!)]));
};

/** The event the local gateway (and API Gateway) hands the route's function for this call. */
export const apiEvent = async (route: RouteDefinition, call: Call): Promise<APIGatewayProxyEventV2> => {
  const url = new URL(call.path, 'http://127.0.0.1');
  const method = route.method === 'ANY' ? 'GET' : route.method;
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-encoding': 'gzip, deflate, br',
    host: 'api.example.test',
    'user-agent': 'Mozilla/5.0 (cold-start bench)',
    'x-forwarded-for': '203.0.113.7',
    'x-forwarded-proto': 'https',
    ...call.headers,
  };
  let body: string | undefined;
  let isBase64Encoded = false;
  if (call.form) {
    // As a browser sends a form: multipart, which API Gateway passes on base64-encoded.
    const request = new Request('http://127.0.0.1/', { method: 'POST', body: call.form });
    headers['content-type'] = request.headers.get('content-type')!;
    body = Buffer.from(await request.arrayBuffer()).toString('base64');
    isBase64Encoded = true;
  } else if (call.rawBody !== undefined) {
    body = call.rawBody;
  } else if (call.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.body);
  }
  if (body !== undefined)
    headers['content-length'] = String(Buffer.byteLength(body, isBase64Encoded ? 'base64' : 'utf8'));
  // A call that needs the auth emulator to know the token (a new password) brings a real one.
  if (call.caller && !call.headers?.authorization) headers.authorization = `Bearer ${emulatorIdToken(call.caller)}`;
  const pathParameters = pathParametersOf(route, url.pathname);
  const now = new Date();
  const requestId = randomUUID();
  return {
    version: '2.0',
    routeKey: routeKey(route),
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(url.search ? { queryStringParameters: Object.fromEntries(url.searchParams) } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: 'bench',
      domainName: headers.host!,
      domainPrefix: 'api',
      http: {
        method,
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.7',
        userAgent: headers['user-agent']!,
      },
      requestId,
      routeKey: routeKey(route),
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
      ...(call.caller ? { authorizer: { jwt: { claims: claimsOf(call.caller), scopes: [] } } } : {}),
    },
    ...(body !== undefined ? { body } : {}),
    isBase64Encoded,
  } as APIGatewayProxyEventV2;
};

const storage = () =>
  new S3Client({ region: config().AWS_REGION, endpoint: config().S3_ENDPOINT, forcePathStyle: true });

/** A small real JPEG, so the thumbnail and rendition workers make what they would of a photo. */
const photo = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#7aa6d8' } })
  .jpeg()
  .toBuffer();

const putPhoto = async (key: string) => {
  await storage().send(
    new PutObjectCommand({ Bucket: config().PHOTOS_BUCKET, Key: key, Body: photo, ContentType: 'image/jpeg' }),
  );
  return { key, size: photo.length, contentType: 'image/jpeg', lastModified: new Date().toISOString() };
};

const anAccount = async (label: string, roles: Role[]): Promise<Account> => {
  const userId = `bench${ulid()}`;
  const account = { userId, email: `${label}-${userId.slice(-8).toLowerCase()}@example.test`, displayName: label };
  await createUserOnce({ ...account, profileImageUrl: undefined, roles, status: 'verified' });
  return account;
};

/** Identity Toolkit at the auth emulator, as the browser's Firebase SDK calls it. */
const identityToolkit = async <T>(call: string, body: object): Promise<T> => {
  const response = await fetch(
    `http://${config().FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/${call}?key=bench-key`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  const json = (await response.json()) as T & { error?: { message?: string } };
  if (!response.ok) throw new Error(`auth emulator ${call}: ${json.error?.message}`);
  return json;
};

const BENCH_PASSWORD = 'bench-passw0rd';

/** An account the auth emulator knows, with a password, as one made at sign-up. */
const anAccountWithPassword = async (label: string): Promise<Account> => {
  const email = `${label.toLowerCase().replaceAll(' ', '-')}-${ulid().slice(-8).toLowerCase()}@example.test`;
  const { localId } = await identityToolkit<{ localId: string }>('accounts:signUp', {
    email,
    password: BENCH_PASSWORD,
    returnSecureToken: true,
  });
  const account = { userId: localId, email, displayName: label };
  await createUserOnce({ ...account, profileImageUrl: undefined, roles: ['photographer'], status: 'verified' });
  return account;
};

/** The browser's re-authentication before a sensitive action: a fresh sign-in, its ID token. */
const freshIdToken = async (account: Account) =>
  (
    await identityToolkit<{ idToken: string }>('accounts:signInWithPassword', {
      email: account.email,
      password: BENCH_PASSWORD,
      returnSecureToken: true,
    })
  ).idToken;

/** A picture in the account's folder for the kind, as the signed upload leaves it in S3. */
const putPicture = (account: Account, kind: ProfilePictureKind) =>
  putPhoto(`${profilePicturePrefix(account.userId, kind)}${randomUUID()}-picture.jpg`);

/** A photographer with a saved profile image and logo. */
const anAccountWithPictures = async () => {
  const account = await anAccount('Bench Pictured', ['photographer']);
  for (const kind of ['image', 'logo'] as const) {
    await setProfilePicture(account.userId, kind, (await putPicture(account, kind)).key);
  }
  return account;
};

/** A pending change of the account's email address; the token its link carries. */
const aPendingEmailChange = async () => {
  const account = await anAccount('Bench Email Mover', ['photographer']);
  const { token } = await requestEmailChange(
    (await getUser(account.userId))!,
    `bench-moved-${ulid().slice(-10).toLowerCase()}@example.test`,
    { browser: 'Chrome on macOS' },
  );
  return token;
};

const EDITOR_RATE_CENTS = 50;

/** The records every route's caller needs: one account per role (two editors), with rates. */
export const seedAccounts = async () => {
  const [photographer, editor, otherEditor, admin] = await Promise.all([
    anAccount('Bench Photographer', ['photographer']),
    anAccount('Bench Editor', ['editor']),
    anAccount('Bench Other Editor', ['editor']),
    anAccount('Bench Admin', ['admin']),
  ]);
  for (const e of [editor, otherEditor]) {
    await writeEditorRates(e.userId, [{ jobTypeId: 'hdr', ratePerPhotoCents: EDITOR_RATE_CENTS }], { replace: false });
  }
  return { photographer, editor, otherEditor, admin };
};

export type Accounts = Awaited<ReturnType<typeof seedAccounts>>;

/** An order of the photographer's awaiting payment: a real intent at the Stripe fake when `priced`. */
const anOrderAwaitingPayment = async (photographer: Account, { priced = false, withPhoto = true } = {}) => {
  let order: OrderRecord;
  if (priced) {
    ({ order } = await createPricedOrder({
      photographer: { userId: photographer.userId, name: photographer.displayName },
      input: {
        jobTypeId: 'hdr',
        photoCount: 1,
        name: 'Harbor View 3',
        editingRequirements: undefined,
        turnaroundTier: 'standard',
      },
    }));
  } else {
    const orderId = ulid();
    order = await createOrder({
      orderId,
      orderNumber: await nextOrderNumber(),
      photographer: { userId: photographer.userId, name: photographer.displayName },
      jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
      input: { photoCount: 1, name: 'Oak Street 12' },
      totalAmountCents: 800,
      stripePaymentIntentId: `pi_bench_${orderId}`,
    });
  }
  if (!withPhoto) return order;
  const stored = await putPhoto(`${originalsPrefix(order.orderId)}${randomUUID()}-front.jpg`);
  await registerOriginal({ order, ...stored, filename: 'front.jpg' });
  return (await getOrder(order.orderId))!;
};

const aPaidOrder = async (photographer: Account) => {
  const order = await anOrderAwaitingPayment(photographer);
  await markOrderPaid({
    orderId: order.orderId,
    paymentIntentId: order.stripePaymentIntentId!,
    amountCents: order.totalAmountCents,
    via: 'webhook',
  });
  return (await getOrder(order.orderId))!;
};

/** Claimed by the editor, with one edited photo delivered (not completed yet). */
const anOrderInProgress = async (photographer: Account, editor: Account) => {
  const { orderId } = await aPaidOrder(photographer);
  await claimOrder({
    orderId,
    editor: { userId: editor.userId, name: editor.displayName, email: editor.email },
    rateCents: EDITOR_RATE_CENTS,
  });
  const stored = await putPhoto(`${editedPrefix(orderId)}${randomUUID()}-front.jpg`);
  await registerEdited({
    order: (await getOrder(orderId))!,
    ...stored,
    filename: 'front.jpg',
    editorId: editor.userId,
  });
  return (await getOrder(orderId))!;
};

const aCompletedOrder = async (photographer: Account, editor: Account) => {
  const { orderId } = await anOrderInProgress(photographer, editor);
  await completeOrder({ orderId, editorId: editor.userId, editorNotes: 'Done.' });
  return (await getOrder(orderId))!;
};

const imageKeys = async (orderId: string, kind: 'original' | 'edited') =>
  (await listImages(orderId, kind)).map((image) => image.key);

/** A priced order whose intent the card form has confirmed, with the fake's webhooks for it dropped. */
const anOrderPaidAtStripe = async (photographer: Account) => {
  const order = await anOrderAwaitingPayment(photographer, { priced: true });
  const intentId = order.stripePaymentIntentId!;
  const fake = config().STRIPE_API_URL!;
  // Neither the stack's webhook route nor the browser has told the order yet: the route measured does.
  const faulted = await fetch(`${fake}/__faults`, {
    method: 'POST',
    body: JSON.stringify({ method: 'POST', path: 'webhooks', match: { id: intentId }, times: 5 }),
  });
  if (!faulted.ok) throw new Error(`the Stripe fake refused a webhook fault: ${faulted.status}`);
  const intent = await stripeApi({ secretKey: config().STRIPE_SECRET_KEY!, baseUrl: fake }).paymentIntents.retrieve(
    intentId,
  );
  const confirmed = await fetch(`${fake}/v1/payment_intents/${intentId}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      key: LOCAL_STRIPE_PUBLISHABLE_KEY,
      client_secret: intent.client_secret ?? '',
      payment_method: 'pm_card_visa',
    }),
  });
  if (!confirmed.ok)
    throw new Error(`the Stripe fake refused the confirm: ${confirmed.status} ${await confirmed.text()}`);
  return { order, intent: await confirmed.json() };
};

/** A test card saved to the photographer's Stripe Customer (made on the first), as the card form saves one. */
const aSavedCard = async (photographer: Account, testCard = 'pm_card_visa') => {
  const customer = await ensureStripeCustomer(photographer);
  return (await (await stripe()).paymentMethods.attach(testCard, { customer })).id;
};

/** Stripe's signature over the payload at this moment (the route refuses one older than 5 minutes). */
const stripeSignature = (payload: string, secret = LOCAL_STRIPE_WEBHOOK_SECRET) => {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
};

/** A Stripe event as its webhooks deliver it: a fresh id, signed now with the endpoint's secret. */
const stripeDelivery = (path: string, event: Record<string, unknown>, secret?: string): Call => {
  const payload = JSON.stringify(
    {
      id: `evt_bench_${ulid()}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      ...event,
    },
    null,
    2,
  );
  return {
    path,
    rawBody: payload,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      'stripe-signature': stripeSignature(payload, secret),
    },
  };
};

/** `count` records made by `make`, a few at a time. */
const several = async <T>(count: number, make: (i: number) => Promise<T>, concurrency = 4) => {
  const made: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        made[i] = await make(i);
      }
    }),
  );
  return made;
};

const routeOf = (key: string) => {
  const route = routes.find((r) => routeKey(r) === key);
  if (!route) throw new Error(`the route table has no ${key}`);
  return route;
};

type Builder = (count: number) => Promise<(run: number) => Call | Promise<Call>>;

/**
 * Every route of the table, by route key: how to seed its `count` runs and the call of each run.
 * The calls are those of the authorization matrix's allowed callers, on records of their own. A
 * route without one here is not measured, and the bench says so.
 */
export const routeRequests = async (
  accounts: Accounts,
  count: number,
  wanted: ReadonlySet<string> = new Set(routes.map(routeKey)),
): Promise<Map<string, RouteRequest>> => {
  const { photographer: p, editor: e, otherEditor, admin } = accounts;
  const jpeg = () => new Blob([new Uint8Array(photo)], { type: 'image/jpeg' });
  const rates = (run: number) => [{ jobTypeId: 'hdr', ratePerPhotoCents: 50 + run }];

  // Shared records for the routes that only read them (or change them alike every run).
  const [awaiting, awaitingPriced, inProgress, gallery, shared] = await Promise.all([
    anOrderAwaitingPayment(p),
    anOrderAwaitingPayment(p, { priced: true }),
    anOrderInProgress(p, e),
    aCompletedOrder(p, e),
    aCompletedOrder(p, e),
  ]);
  const sharedLink = await createShareLink({ order: shared, userId: p.userId });
  const invitation = await createInvitation({
    email: `bench-invitee-${ulid().slice(-8).toLowerCase()}@example.test`,
    displayName: 'Bench Invitee',
    jobTypeRates: [{ jobTypeId: 'hdr', ratePerPhotoCents: 60 }],
    invitedBy: admin.userId,
  });
  const monthlyPhotographer = await anAccount('Bench Monthly Photographer', ['photographer']);
  await several(3, () => aPaidOrder(monthlyPhotographer));
  const galleryReceipt = (await orderBillingEntries(gallery.orderId))[0]?.entryId;
  if (!galleryReceipt) throw new Error('the paid order has no billing entry to show a receipt of');
  await startPayoutOnboarding(e, 'profile');
  const editorAccount = ((await getUser(e.userId)) as { stripeAccountId?: string } | null)?.stripeAccountId;
  if (!editorAccount) throw new Error('the editor has no connected account after onboarding started');
  // The photographer's saved cards: one to pay with, one to make the default.
  const cardToPayWith = await aSavedCard(p);
  const cardToMakeDefault = await aSavedCard(p, 'pm_card_mastercard');
  // Profile pictures saved by one photographer; email switches and unsubscribe links of another;
  // an email change asked for, and one pending whose link is opened (GET changes nothing).
  const pictureOwner = await anAccount('Bench Picture Owner', ['photographer']);
  const subscriber = await anAccount('Bench Subscriber', ['photographer']);
  const unsubscribeLink = signUnsubscribeToken(config().UNSUBSCRIBE_KEY!, {
    userId: subscriber.userId,
    kind: 'editor_started',
  });
  const emailMover = await anAccount('Bench Email Mover', ['photographer']);
  const pendingEmailChange = await aPendingEmailChange();
  const jobType = await createJobType({
    name: `Bench ${ulid().slice(-6)}`,
    pricePerPhotoCents: 900,
    defaultEditorPriceCents: 300,
  });
  const addOn = await createAddOn({
    name: `Bench add-on ${ulid().slice(-6)}`,
    pricePerPhotoCents: 300,
    editorRatePerPhotoCents: 180,
    sortOrder: 900,
  });

  const reusable =
    (call: (run: number) => Call | Promise<Call>): Builder =>
    async () =>
      call;
  const perRun =
    <T>(make: (i: number) => Promise<T>, call: (record: T, run: number) => Call | Promise<Call>): Builder =>
    async (n) => {
      const records = await several(n, make);
      return (run) => call(records[run]!, run);
    };
  const orderPath = (order: OrderRecord, suffix = '') => `/api/orders/${order.orderId}${suffix}`;

  const builders: Record<string, Builder> = {
    'GET /api/health': reusable(() => ({ path: '/api/health' })),
    'GET /api/auth/me': reusable(() => ({ path: '/api/auth/me', caller: p })),
    'GET /api/account/notifications': reusable(() => ({ path: '/api/account/notifications', caller: p })),
    'GET /api/account/security-activity': reusable(() => ({ path: '/api/account/security-activity', caller: p })),
    'GET /api/account/data-export': reusable(() => ({ path: '/api/account/data-export', caller: p })),
    'PATCH /api/auth/profile': reusable((run) => ({
      path: '/api/auth/profile',
      caller: p,
      body: { displayName: `Bench Photographer ${run}` },
    })),
    // Profile pictures: an upload signed; one already in S3 saved (each replaces the one before and
    // deletes it); a saved image or logo removed, on an account of its own every run.
    ...Object.fromEntries(
      (['image', 'logo'] as const).flatMap((kind): [string, Builder][] => [
        [
          `POST /api/profile/${kind}/sign`,
          reusable(() => ({
            path: `/api/profile/${kind}/sign`,
            caller: pictureOwner,
            body: {
              method: 'PUT',
              key: `${profilePicturePrefix(pictureOwner.userId, kind)}${randomUUID()}-picture.jpg`,
              size: photo.length,
              contentType: 'image/jpeg',
            },
          })),
        ],
        [
          `PUT /api/profile/${kind}`,
          perRun(
            () => putPicture(pictureOwner, kind),
            ({ key }) => ({
              path: `/api/profile/${kind}`,
              caller: pictureOwner,
              body: { key, filename: 'picture.jpg' },
            }),
          ),
        ],
        [
          `DELETE /api/profile/${kind}`,
          perRun(anAccountWithPictures, (owner) => ({ path: `/api/profile/${kind}`, caller: owner })),
        ],
      ]),
    ),
    // The editing style (decision 0107): read, saved (the same choices every run), a reference photo's upload signed.
    'GET /api/profile/editing-style': reusable(() => ({ path: '/api/profile/editing-style', caller: p })),
    'PUT /api/profile/editing-style': reusable((run) => ({
      path: '/api/profile/editing-style',
      caller: p,
      body: { ...defaultEditingStyle, notes: `Bench style ${run}` },
    })),
    'POST /api/profile/editing-style/references/sign': reusable(() => ({
      path: '/api/profile/editing-style/references/sign',
      caller: p,
      body: {
        method: 'PUT',
        key: `${styleReferencePrefix(p.userId)}${randomUUID()}-look.jpg`,
        size: photo.length,
        contentType: 'image/jpeg',
      },
    })),
    'PATCH /api/account/notifications': reusable((run) => ({
      path: '/api/account/notifications',
      caller: subscriber,
      body: { emails: { photos_ready: run % 2 === 1 } },
    })),
    // The email's one-click unsubscribe: the signed link, and what a mailbox provider POSTs (RFC 8058).
    'GET /api/unsubscribe': reusable(() => ({ path: `/api/unsubscribe?token=${unsubscribeLink}` })),
    'POST /api/unsubscribe': reusable(() => ({
      path: `/api/unsubscribe?token=${unsubscribeLink}`,
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })),
    // Account security: each after a recent sign-in (the claims' auth_time); the password at the
    // auth emulator with the token of a sign-in just made, as the browser re-authenticates first.
    'POST /api/account/password': perRun(
      () => anAccountWithPassword('Bench Password Changer'),
      async (account, run) => ({
        path: '/api/account/password',
        caller: account,
        body: { newPassword: `bench-new-passw0rd-${run}` },
        headers: { authorization: `Bearer ${await freshIdToken(account)}` },
      }),
    ),
    'POST /api/account/email-change': reusable((run) => ({
      path: '/api/account/email-change',
      caller: emailMover,
      body: { newEmail: `bench-new-${run}-${ulid().slice(-8).toLowerCase()}@example.test` },
    })),
    'GET /api/account/email-change/{token}': reusable(() => ({
      path: `/api/account/email-change/${pendingEmailChange}`,
    })),
    'POST /api/account/email-change/{token}': perRun(aPendingEmailChange, (token) => ({
      path: `/api/account/email-change/${token}`,
    })),
    // Each of these ends something of the account's once: an account of its own every run.
    'POST /api/account/sign-out-everywhere': perRun(
      () => anAccount('Bench Signing Out', ['photographer']),
      (account) => ({ path: '/api/account/sign-out-everywhere', caller: account, body: {} }),
    ),
    'POST /api/account/data-export': perRun(
      () => anAccount('Bench Exporter', ['photographer']),
      (account) => ({ path: '/api/account/data-export', caller: account, body: {} }),
    ),
    'POST /api/account/delete': perRun(
      () => anAccount('Bench Leaver', ['photographer']),
      (account) => ({ path: '/api/account/delete', caller: account, body: { confirmation: 'DELETE' } }),
    ),
    'GET /api/orders/job-types': reusable(() => ({ path: '/api/orders/job-types', caller: p })),
    'GET /api/orders/add-ons': reusable(() => ({ path: '/api/orders/add-ons', caller: p })),
    'POST /api/orders': reusable(() => ({ path: '/api/orders', caller: p, body: { jobTypeId: 'hdr', photoCount: 1 } })),
    'POST /api/orders/with-files': reusable(() => {
      const form = new FormData();
      form.append('jobTypeId', 'hdr');
      form.append('photoCount', '1');
      form.append('photos', jpeg(), 'front.jpg');
      return { path: '/api/orders/with-files', caller: p, form };
    }),
    'GET /api/orders/my': reusable(() => ({ path: '/api/orders/my', caller: p })),
    'GET /api/orders/{id}': reusable(() => ({ path: orderPath(gallery), caller: p })),
    'GET /api/orders/{id}/images': reusable(() => ({ path: orderPath(gallery, '/images'), caller: p })),
    'GET /api/orders/{id}/editing-style': reusable(() => ({ path: orderPath(gallery, '/editing-style'), caller: p })),
    'POST /api/orders/{id}/uploads/sign': reusable(() => ({
      path: orderPath(awaiting, '/uploads/sign'),
      caller: p,
      body: {
        method: 'PUT',
        key: `${originalsPrefix(awaiting.orderId)}${randomUUID()}-back.jpg`,
        size: 30_000_000,
        contentType: 'image/jpeg',
      },
    })),
    'POST /api/orders/{id}/uploads/complete': perRun(
      async () => {
        const order = await anOrderAwaitingPayment(p, { withPhoto: false });
        return { order, ...(await putPhoto(`${originalsPrefix(order.orderId)}${randomUUID()}-front.jpg`)) };
      },
      ({ order, key }) => ({
        path: orderPath(order, '/uploads/complete'),
        caller: p,
        body: { key, filename: 'front.jpg' },
      }),
    ),
    'GET /api/orders/{id}/payment': reusable(() => ({ path: orderPath(awaitingPriced, '/payment'), caller: p })),
    'POST /api/orders/{id}/payment-success': perRun(
      () => anOrderPaidAtStripe(p),
      ({ order }) => ({
        path: orderPath(order, '/payment-success'),
        caller: p,
        body: { paymentIntentId: order.stripePaymentIntentId },
      }),
    ),
    // A first saved card: the photographer's Stripe Customer is made on the way.
    'POST /api/orders/{id}/payment/save-card': perRun(
      async () => {
        const photographer = await anAccount('Bench Card Saver', ['photographer']);
        return { photographer, order: await anOrderAwaitingPayment(photographer, { priced: true }) };
      },
      ({ photographer, order }) => ({
        path: orderPath(order, '/payment/save-card'),
        caller: photographer,
        body: { saveCard: true },
      }),
    ),
    'POST /api/orders/{id}/payment/saved-card': perRun(
      () => anOrderAwaitingPayment(p, { priced: true }),
      (order) => ({
        path: orderPath(order, '/payment/saved-card'),
        caller: p,
        body: { paymentMethodId: cardToPayWith, returnUrl: `${config().SITE_URL}${orderPaymentPath(order.orderId)}` },
      }),
    ),
    'GET /api/payment-methods': reusable(() => ({ path: '/api/payment-methods', caller: p })),
    'PUT /api/payment-methods/{paymentMethodId}/default': reusable(() => ({
      path: `/api/payment-methods/${cardToMakeDefault}/default`,
      caller: p,
    })),
    'DELETE /api/payment-methods/{paymentMethodId}': perRun(
      () => aSavedCard(p, 'pm_card_amex'),
      (card) => ({ path: `/api/payment-methods/${card}`, caller: p }),
    ),
    'POST /api/webhooks/stripe': perRun(
      () => anOrderPaidAtStripe(p),
      ({ intent }) =>
        stripeDelivery('/api/webhooks/stripe', { type: 'payment_intent.succeeded', data: { object: intent } }),
    ),
    // Billing: the receipts of an order paid (made by the receipts worker during the seeding), the history, a month.
    'GET /api/orders/{id}/receipts': reusable(() => ({ path: orderPath(gallery, '/receipts'), caller: p })),
    'GET /api/orders/{id}/receipts/{receiptId}': reusable(() => ({
      path: orderPath(gallery, `/receipts/${galleryReceipt}`),
      caller: p,
    })),
    'GET /api/billing/history': reusable(() => ({ path: '/api/billing/history?limit=5', caller: p })),
    // A month of a photographer with a few payments: the bench's photographer has hundreds this month.
    'GET /api/billing/statement': reusable(() => ({
      path: `/api/billing/statement?month=${new Date().toISOString().slice(0, 7)}&tz=Europe%2FBerlin`,
      caller: monthlyPhotographer,
    })),
    // Editors' payouts: the editor's connected account at the Stripe fake, made during the seeding.
    'GET /api/payout-account': reusable(() => ({ path: '/api/payout-account', caller: e })),
    // 'Set up payouts' for the first time: the connected account is made on the way.
    'POST /api/payout-account/link': perRun(
      () => anAccount('Bench New Payee', ['editor']),
      (editor) => ({ path: '/api/payout-account/link', caller: editor, body: { returnTo: 'profile' } }),
    ),
    'POST /api/payout-account/refresh': reusable(() => ({
      path: '/api/payout-account/refresh',
      caller: e,
      body: { returnedFrom: 'onboarding' },
    })),
    'GET /api/earnings': reusable(() => ({ path: '/api/earnings?limit=5', caller: e })),
    'GET /api/payouts': reusable(() => ({ path: '/api/payouts?limit=5', caller: e })),
    'POST /api/stripe/connect-webhook': reusable(async () => {
      const account = await (await stripe()).accounts.retrieve(editorAccount);
      return stripeDelivery(
        '/api/stripe/connect-webhook',
        { type: 'account.updated', account: editorAccount, data: { object: account } },
        LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET,
      );
    }),
    'GET /api/admin/editors/{id}/earnings': reusable(() => ({
      path: `/api/admin/editors/${e.userId}/earnings`,
      caller: admin,
    })),
    'GET /api/orders/{id}/download-completed': perRun(
      () => aCompletedOrder(p, e),
      (order) => ({ path: orderPath(order, '/download-completed'), caller: p }),
    ),
    'GET /api/orders/{id}/sequence': reusable(() => ({ path: orderPath(gallery, '/sequence'), caller: p })),
    'PUT /api/orders/{id}/sequence': perRun(
      async () => {
        const order = await aCompletedOrder(p, e);
        return { order, keys: await imageKeys(order.orderId, 'edited') };
      },
      ({ order, keys }) => ({
        path: orderPath(order, '/sequence'),
        caller: p,
        body: { keys, version: 0, replace: true },
      }),
    ),
    'PUT /api/orders/{id}/mls-size': perRun(
      () => aCompletedOrder(p, e),
      (order) => ({ path: orderPath(order, '/mls-size'), caller: p, body: { longEdge: 1024 } }),
    ),
    'GET /api/orders/{id}/download-mls': perRun(
      () => aCompletedOrder(p, e),
      (order) => ({ path: orderPath(order, '/download-mls'), caller: p }),
    ),
    // An order holds at most 10 live links: the link made, and the one revoked, are each on an order of their own.
    'POST /api/orders/{id}/share-links': perRun(
      () => aCompletedOrder(p, e),
      (order) => ({ path: orderPath(order, '/share-links'), caller: p, body: { expiresInDays: 7 } }),
    ),
    'GET /api/orders/{id}/share-links': reusable(() => ({ path: orderPath(shared, '/share-links'), caller: p })),
    'PATCH /api/orders/{id}/share-links/{linkId}': reusable((run) => ({
      path: orderPath(shared, `/share-links/${sharedLink.id}`),
      caller: p,
      body: { expiresInDays: 10 + run },
    })),
    'DELETE /api/orders/{id}/share-links/{linkId}': perRun(
      async () => {
        const order = await aCompletedOrder(p, e);
        return { order, link: await createShareLink({ order, userId: p.userId }) };
      },
      ({ order, link }) => ({ path: orderPath(order, `/share-links/${link.id}`), caller: p }),
    ),
    'GET /api/share/{token}': reusable(() => ({ path: `/api/share/${sharedLink.token}` })),
    'GET /api/share/{token}/downloads/{kind}': perRun(
      async () => createShareLink({ order: await aCompletedOrder(p, e), userId: p.userId }),
      (link) => ({ path: `/api/share/${link.token}/downloads/full` }),
    ),
    'POST /api/orders/{id}/rate': perRun(
      () => aCompletedOrder(p, e),
      (order) => ({ path: orderPath(order, '/rate'), caller: p, body: { rating: 9 } }),
    ),
    'POST /api/orders/{id}/revisions': perRun(
      () => aCompletedOrder(p, e),
      (order) => ({ path: orderPath(order, '/revisions'), caller: p, body: { note: 'Brighten the kitchen, please.' } }),
    ),
    'PATCH /api/orders/{id}/pairings': perRun(
      async () => {
        const order = await anOrderInProgress(p, e);
        const [original] = await imageKeys(order.orderId, 'original');
        const [edited] = await imageKeys(order.orderId, 'edited');
        return { order, original, edited };
      },
      ({ order, original, edited }) => ({
        path: orderPath(order, '/pairings'),
        caller: e,
        body: { editedKey: edited, originalKey: original },
      }),
    ),
    // Add-ons: read on a delivered order; ticked on the priced order's photo (the intent's amount follows).
    'GET /api/orders/{id}/add-ons': reusable(() => ({ path: orderPath(gallery, '/add-ons'), caller: p })),
    'PUT /api/orders/{id}/add-ons': reusable(async (run) => {
      const [key] = await imageKeys(awaitingPriced.orderId, 'original');
      return {
        path: orderPath(awaitingPriced, '/add-ons'),
        caller: p,
        body: { photos: [{ key, addOnIds: run % 2 ? [addOn.id] : [] }] },
      };
    }),
    // Marks on the photos: read on a delivered order, saved on it (the same marks each run), ticked while editing.
    'GET /api/orders/{id}/marks': reusable(() => ({ path: orderPath(gallery, '/marks'), caller: p })),
    'PUT /api/orders/{id}/marks': reusable(async () => {
      const [key] = await imageKeys(gallery.orderId, 'original');
      const points = [
        { x: 0.1, y: 0.1 },
        { x: 0.4, y: 0.4 },
      ];
      return {
        path: orderPath(gallery, '/marks'),
        caller: p,
        body: { key, marks: [{ id: 'bench-mark', kind: 'rect', points, note: 'Remove the bin' }] },
      };
    }),
    'PATCH /api/orders/{id}/marks/done': reusable(async () => {
      const [key] = await imageKeys(inProgress.orderId, 'original');
      const points = [
        { x: 0.1, y: 0.1 },
        { x: 0.4, y: 0.4 },
      ];
      await marketplace()
        .entities.orderImageMarks.put({
          orderId: inProgress.orderId,
          key: key!,
          marks: [{ id: 'bench-mark', kind: 'rect', points, note: 'Remove the bin', done: false, round: 0 }],
          markCount: 1,
          updatedBy: p.userId,
        })
        .go();
      return { path: orderPath(inProgress, '/marks/done'), caller: e, body: { key, markId: 'bench-mark', done: true } };
    }),
    'GET /api/stats/photographer': reusable(() => ({ path: '/api/stats/photographer', caller: p })),
    'POST /api/admin/invite-editor': reusable((run) => ({
      path: '/api/admin/invite-editor',
      caller: admin,
      body: {
        email: `bench-invite-${run}-${ulid().slice(-8).toLowerCase()}@example.test`,
        displayName: 'Bench Invitee',
        jobTypeRates: rates(run),
      },
    })),
    'GET /api/auth/verify-invitation': reusable(() => ({
      path: `/api/auth/verify-invitation?${new URLSearchParams({ email: invitation.user.email, token: invitation.token })}`,
    })),
    'POST /api/auth/complete-signup': perRun(
      async () => {
        const email = `bench-signup-${ulid().slice(-8).toLowerCase()}@example.test`;
        const created = await createInvitation({
          email,
          displayName: 'Bench Signup',
          jobTypeRates: [{ jobTypeId: 'hdr', ratePerPhotoCents: 60 }],
          invitedBy: admin.userId,
        });
        return {
          email,
          token: created.token,
          account: { userId: `bench${ulid()}`, email, displayName: 'Bench Signup' },
        };
      },
      ({ email, token, account }) => ({
        path: '/api/auth/complete-signup',
        body: { email, token, firebaseUid: account.userId, idToken: emulatorIdToken(account) },
      }),
    ),
    'GET /api/orders/available': reusable(() => ({ path: '/api/orders/available', caller: e })),
    'GET /api/orders/my-assignments': reusable(() => ({ path: '/api/orders/my-assignments', caller: e })),
    'POST /api/orders/{id}/claim': perRun(
      () => aPaidOrder(p),
      (order) => ({ path: orderPath(order, '/claim'), caller: e }),
    ),
    'POST /api/orders/{id}/complete': perRun(
      () => anOrderInProgress(p, e),
      (order) => ({ path: orderPath(order, '/complete'), caller: e, body: { editorNotes: 'Done.' } }),
    ),
    'GET /api/orders/{id}/events': reusable(() => ({ path: orderPath(gallery, '/events'), caller: p })),
    'GET /api/orders/{id}/images/download-all': perRun(
      () => anOrderInProgress(p, e),
      (order) => ({ path: orderPath(order, '/images/download-all'), caller: e }),
    ),
    'POST /api/orders/{id}/edited-uploads/sign': reusable(() => ({
      path: orderPath(inProgress, '/edited-uploads/sign'),
      caller: e,
      body: {
        method: 'PUT',
        key: `${editedPrefix(inProgress.orderId)}${randomUUID()}-sky.jpg`,
        size: 30_000_000,
        contentType: 'image/jpeg',
      },
    })),
    'POST /api/orders/{id}/edited-uploads/complete': perRun(
      () => putPhoto(`${editedPrefix(inProgress.orderId)}${randomUUID()}-late.jpg`),
      ({ key }) => ({
        path: orderPath(inProgress, '/edited-uploads/complete'),
        caller: e,
        body: { key, filename: 'late.jpg' },
      }),
    ),
    'POST /api/orders/{id}/images/upload': reusable(() => {
      const form = new FormData();
      form.append('editedImage', jpeg(), 'hall.jpg');
      return { path: orderPath(inProgress, '/images/upload'), caller: e, form };
    }),
    'GET /api/stats/editor': reusable(() => ({ path: '/api/stats/editor', caller: e })),
    'GET /api/orders/admin/all': reusable(() => ({ path: '/api/orders/admin/all', caller: admin })),
    'PATCH /api/orders/admin/{id}/assign': perRun(
      () => aPaidOrder(p),
      (order) => ({ path: `/api/orders/admin/${order.orderId}/assign`, caller: admin, body: { editorId: e.userId } }),
    ),
    'DELETE /api/orders/admin/{id}/unassign': perRun(
      async () => {
        const order = await aPaidOrder(p);
        await assignOrder({ orderId: order.orderId, editorId: otherEditor.userId, adminId: admin.userId });
        return order;
      },
      (order) => ({ path: `/api/orders/admin/${order.orderId}/unassign`, caller: admin }),
    ),
    'POST /api/orders/admin/bulk-assign': perRun(
      () => aPaidOrder(p),
      (order) => ({
        path: '/api/orders/admin/bulk-assign',
        caller: admin,
        body: { orderIds: [order.orderId], editorId: e.userId },
      }),
    ),
    'POST /api/orders/admin/{id}/cancel': perRun(
      () => anOrderAwaitingPayment(p, { priced: true }),
      (order) => ({ path: `/api/orders/admin/${order.orderId}/cancel`, caller: admin }),
    ),
    'GET /api/admin/users': reusable(() => ({ path: '/api/admin/users', caller: admin })),
    'PATCH /api/admin/users/{id}/role': perRun(
      () => anAccount('Bench Role Target', ['photographer']),
      (target) => ({ path: `/api/admin/users/${target.userId}/role`, caller: admin, body: { role: 'editor' } }),
    ),
    'POST /api/admin/users/{id}/roles': perRun(
      () => anAccount('Bench Role Target', ['photographer']),
      (target) => ({ path: `/api/admin/users/${target.userId}/roles`, caller: admin, body: { role: 'editor' } }),
    ),
    'DELETE /api/admin/users/{id}/roles/{role}': perRun(
      () => anAccount('Bench Role Target', ['photographer', 'editor']),
      (target) => ({ path: `/api/admin/users/${target.userId}/roles/editor`, caller: admin }),
    ),
    'PATCH /api/admin/users/{id}/deactivate': perRun(
      () => anAccount('Bench Suspended', ['photographer']),
      (target) => ({ path: `/api/admin/users/${target.userId}/deactivate`, caller: admin }),
    ),
    'PATCH /api/admin/users/{id}/reactivate': perRun(
      async () => {
        const target = await anAccount('Bench Deleted', ['photographer']);
        await deleteUser({ userId: target.userId, actorId: admin.userId });
        return target;
      },
      (target) => ({ path: `/api/admin/users/${target.userId}/reactivate`, caller: admin }),
    ),
    'DELETE /api/admin/users/{id}': perRun(
      () => anAccount('Bench To Delete', ['photographer']),
      (target) => ({ path: `/api/admin/users/${target.userId}`, caller: admin }),
    ),
    'GET /api/admin/invited-users': reusable(() => ({ path: '/api/admin/invited-users', caller: admin })),
    'GET /api/admin/check-email/{email}': reusable(() => ({
      path: `/api/admin/check-email/${encodeURIComponent(invitation.user.email)}`,
      caller: admin,
    })),
    'GET /api/admin/editors': reusable(() => ({ path: '/api/admin/editors', caller: admin })),
    'PATCH /api/admin/editors/{id}/rates': reusable((run) => ({
      path: `/api/admin/editors/${otherEditor.userId}/rates`,
      caller: admin,
      body: { jobTypeRates: rates(run) },
    })),
    'PUT /api/admin/editors/{id}/rates': reusable((run) => ({
      path: `/api/admin/editors/${otherEditor.userId}/rates`,
      caller: admin,
      body: { jobTypeRates: rates(run) },
    })),
    'GET /api/admin/editors/{id}/stats': reusable(() => ({
      path: `/api/admin/editors/${e.userId}/stats`,
      caller: admin,
    })),
    'GET /api/admin/editors/{id}/payouts': reusable(() => ({
      path: `/api/admin/editors/${e.userId}/payouts`,
      caller: admin,
    })),
    'POST /api/admin/editors/{id}/payouts': reusable(() => ({
      path: `/api/admin/editors/${e.userId}/payouts`,
      caller: admin,
      body: { amountCents: 1, note: 'Bench payout' },
    })),
    'GET /api/admin/insights': reusable(() => ({
      path: '/api/admin/insights?range=7&tz=Europe%2FBerlin',
      caller: admin,
    })),
    'GET /api/admin/job-types': reusable(() => ({ path: '/api/admin/job-types', caller: admin })),
    'GET /api/admin/job-types/add-ons': reusable(() => ({ path: '/api/admin/job-types/add-ons', caller: admin })),
    'POST /api/admin/job-types/add-ons': reusable(() => ({
      path: '/api/admin/job-types/add-ons',
      caller: admin,
      body: { name: `Bench add-on ${ulid().slice(-8)}`, pricePerPhotoCents: 300 },
    })),
    'PATCH /api/admin/job-types/add-ons/{id}': reusable((run) => ({
      path: `/api/admin/job-types/add-ons/${addOn.id}`,
      caller: admin,
      body: { description: `Changed by the bench, run ${run}` },
    })),
    'POST /api/admin/job-types': reusable(() => ({
      path: '/api/admin/job-types',
      caller: admin,
      body: { name: `Bench ${ulid().slice(-8)}`, pricePerPhotoCents: 900 },
    })),
    'PATCH /api/admin/job-types/{id}': reusable((run) => ({
      path: `/api/admin/job-types/${jobType.id}`,
      caller: admin,
      body: { description: `Changed by the bench, run ${run}` },
    })),
    'GET /api/feedback/all': reusable(() => ({ path: '/api/feedback/all', caller: admin })),
    'GET /api/feedback/stats': reusable(() => ({ path: '/api/feedback/stats', caller: admin })),
    'PUT /api/feedback/{id}': perRun(
      () =>
        submitFeedback({
          userId: p.userId,
          userName: p.displayName,
          userEmail: p.email,
          type: 'general',
          message: 'The bench left a note here.',
        }),
      (feedback) => ({ path: `/api/feedback/${feedback.id}`, caller: admin, body: { status: 'resolved' } }),
    ),
    'POST /api/feedback': reusable(() => ({
      path: '/api/feedback',
      caller: p,
      body: { type: 'suggestion', message: 'A note from the cold-start bench.' },
    })),
    'GET /api/feedback/my': reusable(() => ({ path: '/api/feedback/my', caller: p })),
    'ANY /api/{proxy+}': reusable(() => ({ path: '/api/no-such-route' })),
  };

  const requests = new Map<string, RouteRequest>();
  for (const [key, builder] of Object.entries(builders)) {
    if (!wanted.has(key)) continue;
    const route = routeOf(key);
    const callOf = await builder(count);
    requests.set(key, {
      route,
      ...(key === 'ANY /api/{proxy+}' ? { expect: 404 } : {}),
      event: async (run) => apiEvent(route, await callOf(run)),
    });
  }
  return requests;
};

/** The floor's GetItem reads an item that is there: the photographer's user record. */
export const floorKey = async (accounts: Accounts) => {
  const params = marketplace().entities.user.get({ userId: accounts.photographer.userId }).params() as {
    Key: Record<string, string>;
  };
  return params.Key;
};

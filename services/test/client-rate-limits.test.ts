import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { editedPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStackGateway } from '../local/stack';
import { listFeedbackByUser } from '../src/data/feedback';
import {
  claimOrder,
  completeOrder,
  createOrder,
  markOrderPaid,
  nextOrderNumber,
  registerEdited,
} from '../src/data/orders';
import { createShareLink, hashShareToken } from '../src/data/share-links';
import { signUnsubscribeToken } from '../src/domain/unsubscribe-token';
import { rateLimits } from '../src/rate-limits';
import { anEditor, aPhotographer, db, type TestAccount } from './support';

/**
 * The declared per-client limits, on the gateway the local stack serves (its routes, handlers,
 * table and storage), built here with them: the shared test stack runs a scaled copy, since the
 * whole suite reaches it from 127.0.0.1. Each client is its own loopback address (Linux routes all
 * of 127.0.0.0/8 to this machine), bound as the request's local address.
 */
let gateway: http.Server;
let port = 0;
const agents = new Map<string, http.Agent>();

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

const send = (
  from: string,
  path: string,
  { method = 'GET', token, body }: { method?: string; token?: string; body?: object } = {},
) =>
  new Promise<Answer>((resolve, reject) => {
    let agent = agents.get(from);
    if (!agent) {
      agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
      agents.set(from, agent);
    }
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        localAddress: from,
        agent,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });

/** `count` requests from one address, `inFlight` at a time, as a script flooding the site would send them. */
const flood = async (from: string, path: string, count: number, inFlight = 10) => {
  const answers: Answer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        next += 1;
        answers.push(await send(from, path));
      }
    }),
  );
  return answers;
};

const statuses = (answers: readonly Answer[]) => {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

const expectRefusal = (answer: Answer) => {
  expect(answer.status).toBe(429);
  expect(answer.headers['content-type']).toBe('application/json');
  expect(answer.headers['retry-after']).toBe(String(rateLimits.windowSeconds));
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['message']);
  expect(body.message).toMatch(/^Too many requests/);
};

/** A delivered order with one edited photo, written through the data layer as the routes would, and a link to it. */
const aSharedGallery = async (photographer: TestAccount, editor: TestAccount) => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${orderId}`;
  await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Flo Flood' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount: 1 },
    totalAmountCents: 800,
    stripePaymentIntentId: paymentIntentId,
  });
  await markOrderPaid({ orderId, paymentIntentId, amountCents: 800, via: 'webhook' });
  const claimed = await claimOrder({
    orderId,
    editor: { userId: editor.uid, name: 'Ed Editor', email: editor.email },
    rateCents: 55,
  });
  const key = `${editedPrefix(orderId)}${ulid()}-front.jpg`;
  const bytes = randomBytes(2000);
  const s3 = new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });
  await s3.send(new PutObjectCommand({ Bucket: process.env.PHOTOS_BUCKET, Key: key, Body: bytes }));
  s3.destroy();
  await registerEdited({
    order: claimed,
    editorId: editor.uid,
    key,
    filename: 'front.jpg',
    size: bytes.length,
    lastModified: new Date().toISOString(),
  });
  const completed = await completeOrder({ orderId, editorId: editor.uid, editorNotes: 'Done' });
  return createShareLink({ order: completed, userId: photographer.uid });
};

beforeAll(async () => {
  gateway = createStackGateway({ rateLimits });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  port = (gateway.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const agent of agents.values()) agent.destroy();
  await new Promise<void>((resolve) => gateway.close(() => resolve()));
});

describe('one client over its rate limit', () => {
  let photographer: TestAccount;
  let editor: TestAccount;

  beforeAll(async () => {
    [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
  }, 60_000);

  it('is answered 429 with our JSON error on a public route, while another address is served, and only served views are counted', async () => {
    const link = await aSharedGallery(photographer, editor);
    const path = `/api/share/${link.token}`;
    const excess = 50;
    const started = Date.now();
    const [flooded, other] = await Promise.all([
      flood('127.0.0.2', path, rateLimits.publicRouteRequests + excess),
      (async () => {
        const answers: Answer[] = [];
        for (let i = 0; i < 5; i += 1) answers.push(await send('127.0.0.3', path));
        return answers;
      })(),
    ]);
    // The counts below hold while the whole flood falls within one window.
    expect(Date.now() - started).toBeLessThan(rateLimits.windowSeconds * 1000);

    expect(statuses(flooded)).toEqual({ 200: rateLimits.publicRouteRequests, 429: excess });
    for (const refused of flooded.filter((answer) => answer.status === 429)) expectRefusal(refused);
    expect(statuses(other)).toEqual({ 200: 5 });
    // After the flood the flooding address is still refused, and the other one still served.
    expectRefusal(await send('127.0.0.2', path));
    expect((await send('127.0.0.3', path)).status).toBe(200);

    const stored = await db()
      .shareLink.get({ tokenHash: hashShareToken(link.token) })
      .go();
    expect(stored.data?.views).toBe(rateLimits.publicRouteRequests + 5 + 1);
  }, 60_000);

  it('is refused on every route once over the limit on all requests, a signed-in write included, which writes nothing', async () => {
    // The catch-all's 404s count like any request, and sit under the general limit only.
    const flooded = await flood('127.0.0.4', '/api/no-such-route', rateLimits.allRequests, 20);
    expect(statuses(flooded)).toEqual({ 404: rateLimits.allRequests });

    const feedback = { type: 'general', message: 'Sent while over the limit' };
    expectRefusal(
      await send('127.0.0.4', '/api/feedback', { method: 'POST', token: photographer.token, body: feedback }),
    );
    expectRefusal(await send('127.0.0.4', '/api/health'));
    expect((await send('127.0.0.5', '/api/health')).status).toBe(200);
    const served = await send('127.0.0.5', '/api/feedback', {
      method: 'POST',
      token: photographer.token,
      body: { type: 'general', message: 'Sent from another address' },
    });
    expect(served.status, served.text).toBe(201);

    const { feedback: stored } = await listFeedbackByUser(photographer.uid);
    expect(stored.map((item) => item.message)).toEqual(['Sent from another address']);
  }, 60_000);

  it("is answered 429 on the emails' one-click unsubscribe, a public POST, while another address unsubscribes", async () => {
    const token = encodeURIComponent(
      signUnsubscribeToken(process.env.UNSUBSCRIBE_KEY!, { userId: photographer.uid, kind: 'photos_ready' }),
    );
    const path = `/api/unsubscribe?token=${token}`;
    const excess = 10;
    const answers: Answer[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < rateLimits.publicRouteRequests + excess) {
          next += 1;
          answers.push(await send('127.0.0.6', path, { method: 'POST' }));
        }
      }),
    );
    expect(statuses(answers)).toEqual({ 200: rateLimits.publicRouteRequests, 429: excess });
    for (const refused of answers.filter((answer) => answer.status === 429)) expectRefusal(refused);
    const other = await send('127.0.0.7', path, { method: 'POST' });
    expect(other.status, other.text).toBe(200);
    expect(JSON.parse(other.text)).toMatchObject({ kind: 'photos_ready', enabled: false });
  }, 60_000);
});

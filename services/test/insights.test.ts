import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { InsightsView } from '@marketplace/events/insights';
import type { OrderEventType } from '@marketplace/events/order-events';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo } from '../src/data/client';
import {
  type HourRollup,
  hourOf,
  hourStart,
  insightsView,
  lastPoolSampleBefore,
  readHours,
} from '../src/data/insights';
import { createOrder, nextOrderNumber } from '../src/data/orders';
import type { AddOnLine } from '../src/domain/orders';
import { rebuildInsights } from '../src/ops/insights';
import { handler } from '../src/workers/roll-up-insights';
import { aPaidOrder } from './race-builders';
import { aPhotographer, as, aUserWithRoles, db, outboxStreamRecord, sqsEvent, waitFor } from './support';

/**
 * The admin's Insights from hourly rollups. A known set of orders and events in a window of this
 * file's own (March 2031: no other file writes there, though the table is shared) is delivered to
 * the rollup worker as the event-log worker forwards them, with duplicates; the data layer's view,
 * at a fixed "now" in that window, must equal the figures worked out by hand below, and the
 * rebuild from the event log must give the same items. The route itself is called for today.
 */
const HOUR_MS = 3_600_000;
const NOW = new Date('2031-03-12T20:00:00.000Z');
const WINDOW = { from: new Date('2031-03-05T00:00:00.000Z'), to: new Date('2031-03-13T00:00:00.000Z') };
const windowHours = () => readHours(hourOf(WINDOW.from), hourOf(WINDOW.to.getTime() - HOUR_MS));

const run = ulid().toLowerCase();
const HDR = { jobTypeId: `hdr-${run}`, name: 'HDR' };
const SKY = { jobTypeId: `sky-${run}`, name: 'Sky replacement' };
const EDA = { id: `eda-${run}`, name: 'Eda Quick' };
const BO = { id: `bo-${run}`, name: 'Bo Steady' };
const photographerId = `insights-photographer-${run}`;

/**
 * An order whose record holds what the rollups read (payment, due time, claim, editor and rate),
 * as of the window. Created through the data layer, then given those fields directly; the
 * photographer's spending counter follows the payment date written, so the counters stay exact.
 */
const anOrder = async (o: {
  jobType: { jobTypeId: string; name: string };
  photoCount: number;
  totalAmountCents: number;
  paidAt: string;
  claim?: { at: string; editor: { id: string; name: string }; rateCents: number };
  addOns?: AddOnLine[];
}) => {
  const orderId = ulid();
  await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographerId, name: 'Ines Insight' },
    jobType: { ...o.jobType, pricePerPhotoCents: o.totalAmountCents / o.photoCount },
    input: { photoCount: o.photoCount },
    totalAmountCents: o.totalAmountCents,
    stripePaymentIntentId: `pi_test_${orderId}`,
  });
  const paid = Date.parse(o.paidAt);
  await db()
    .order.patch({ orderId })
    .set({
      paidAt: o.paidAt,
      dueAt: new Date(paid + 48 * HOUR_MS).toISOString(),
      ...(o.addOns ? { addOns: o.addOns } : {}),
      ...(o.claim
        ? { claimedAt: o.claim.at, editorName: o.claim.editor.name, editorRateCents: o.claim.rateCents }
        : {}),
    })
    .go();
  await db()
    .counter.update({ scope: `photographer#${photographerId}`, name: 'totalSpent' })
    .add({ value: o.totalAmountCents })
    .go();
  return orderId;
};

interface SyntheticEvent {
  eventId: string;
  orderId: string;
  eventType: OrderEventType;
  occurredAt: string;
  metadata: Record<string, unknown>;
}

const anEvent = (
  orderId: string,
  eventType: OrderEventType,
  occurredAt: string,
  metadata: Record<string, unknown> = {},
): SyntheticEvent => ({ eventId: ulid(Date.parse(occurredAt)), orderId, eventType, occurredAt, metadata });

/** The stream record of an outbox event, as the event-log worker forwards it. */
const forwarded = (event: SyntheticEvent) =>
  JSON.stringify(outboxStreamRecord({ description: `test ${event.eventType}`, ...event }));

const deliver = async (events: SyntheticEvent[]) => {
  for (let i = 0; i < events.length; i += 10) {
    const answer = await handler(sqsEvent('insights', events.slice(i, i + 10).map(forwarded)));
    expect(answer).toEqual({ batchItemFailures: [] });
  }
};

/** The event log holds each event once, as the event-log worker stores it (the rebuild reads it). */
const logged = async (events: SyntheticEvent[]) => {
  for (const e of events) {
    await db()
      .orderEvent.create({ ...e, description: `test ${e.eventType}` })
      .go();
  }
};

let events: SyntheticEvent[];

beforeAll(async () => {
  // The orders (times UTC): E is paid just before the Berlin range starts; C is paid at 00:40 Berlin.
  const E = await anOrder({
    jobType: HDR,
    photoCount: 1,
    totalAmountCents: 800,
    paidAt: '2031-03-05T22:30:00.000Z',
    claim: { at: '2031-03-06T07:00:00.000Z', editor: BO, rateCents: 200 },
  });
  const A = await anOrder({
    jobType: HDR,
    photoCount: 10,
    totalAmountCents: 8000,
    paidAt: '2031-03-08T09:15:00.000Z',
    claim: { at: '2031-03-08T09:50:00.000Z', editor: EDA, rateCents: 300 },
  });
  const B = await anOrder({
    jobType: HDR,
    photoCount: 5,
    totalAmountCents: 4000,
    paidAt: '2031-03-10T07:30:00.000Z',
    claim: { at: '2031-03-10T08:06:00.000Z', editor: BO, rateCents: 250 },
  });
  // C's 2,000 include day-to-dusk on one of its photos (6.00) and sky replacement on both (2 x 2.00).
  const C = await anOrder({
    jobType: HDR,
    photoCount: 2,
    totalAmountCents: 2000,
    paidAt: '2031-03-10T23:40:00.000Z',
    addOns: [
      {
        addOnId: 'day-to-dusk',
        name: 'Day-to-dusk',
        pricePerPhotoCents: 600,
        editorRatePerPhotoCents: 360,
        photoCount: 1,
      },
      { addOnId: 'sky', name: 'Sky', pricePerPhotoCents: 200, editorRatePerPhotoCents: 120, photoCount: 2 },
    ],
  });
  const D = await anOrder({
    jobType: SKY,
    photoCount: 4,
    totalAmountCents: 4000,
    paidAt: '2031-03-11T18:40:00.000Z',
    claim: { at: '2031-03-11T19:00:00.000Z', editor: EDA, rateCents: 500 },
  });
  const aPaid = anEvent(A, 'order_paid', '2031-03-08T09:15:00.000Z', { amountCents: 8000, via: 'webhook' });
  // D was an Express order: its delivery's event names the tier.
  const dCompleted = anEvent(D, 'order_completed', '2031-03-11T21:40:00.000Z', {
    editorId: EDA.id,
    editedCount: 4,
    turnaroundTier: 'express',
  });
  events = [
    anEvent(E, 'order_paid', '2031-03-05T22:30:00.000Z', { amountCents: 800 }),
    anEvent(E, 'order_claimed', '2031-03-06T07:00:00.000Z', { editorId: BO.id }),
    anEvent(E, 'order_completed', '2031-03-06T08:00:00.000Z', { editorId: BO.id, editedCount: 1 }),
    // A's claim is delivered before its payment of the same hour: the pool sample keeps the claim's.
    anEvent(A, 'order_claimed', '2031-03-08T09:50:00.000Z', { editorId: EDA.id }),
    anEvent(A, 'order_completed', '2031-03-08T20:45:00.000Z', { editorId: EDA.id, editedCount: 10 }),
    anEvent(A, 'order_rated', '2031-03-09T08:00:00.000Z', { rating: 9, editorId: EDA.id }),
    anEvent(A, 'revision_requested', '2031-03-09T09:00:00.000Z', { round: 1, editorId: EDA.id }),
    // The revision's re-delivery is not a completion of its own; 30 minutes past its round's due
    // time, it counts as a late Standard delivery round.
    anEvent(A, 'order_completed', '2031-03-09T12:00:00.000Z', {
      editorId: EDA.id,
      editedCount: 11,
      revisionRound: 1,
      turnaroundTier: 'standard',
      dueAt: '2031-03-09T11:30:00.000Z',
      minutesLate: 30,
      lateCreditCents: 160,
    }),
    anEvent(B, 'order_paid', '2031-03-10T07:30:00.000Z', { amountCents: 4000 }),
    anEvent(B, 'order_claimed', '2031-03-10T08:06:00.000Z', { editorId: BO.id }),
    // Two hours after its due time.
    anEvent(B, 'order_completed', '2031-03-12T09:30:00.000Z', { editorId: BO.id, editedCount: 5 }),
    anEvent(B, 'order_rated', '2031-03-12T10:00:00.000Z', { rating: 6, editorId: BO.id }),
    anEvent(C, 'order_paid', '2031-03-10T23:40:00.000Z', { amountCents: 2000 }),
    anEvent(C, 'order_cancelled', '2031-03-11T08:00:00.000Z', { previousStatus: 'paid', refundDueCents: 2000 }),
    anEvent(D, 'order_paid', '2031-03-11T18:40:00.000Z', { amountCents: 4000 }),
    anEvent(D, 'order_claimed', '2031-03-11T19:00:00.000Z', { editorId: EDA.id }),
    dCompleted,
    // D's completion delivered twice in one batch; A's payment comes last, and once more.
    dCompleted,
    aPaid,
  ];
  await logged([...new Map(events.map((e) => [e.eventId, e])).values()]);
  await deliver(events);
  await deliver([aPaid]);
}, 60_000);

/** A day of the view with nothing delivered on it (the take's figures are 0). */
const day = (date: string, grossCents: number, refundsCents: number, ordersPaid: number, ordersCompleted: number) => ({
  date,
  grossCents,
  refundsCents,
  netCents: grossCents - refundsCents,
  ordersPaid,
  ordersCompleted,
  deliveredCents: 0,
  editorEarningsCents: 0,
  takeCents: 0,
});

describe('the rollups of a known set of events', () => {
  it('sums the hours into the admin’s days, weeks, job types and editors as worked out by hand', async () => {
    const view = await insightsView({ range: '7', tz: 'Europe/Berlin' }, NOW);

    // Berlin is UTC+1 in March 2031. Now is 21:00 on Wednesday 12 March there.
    const expected: Omit<InsightsView, 'poolDepth'> = {
      range: '7',
      timeZone: 'Europe/Berlin',
      from: '2031-03-06',
      to: '2031-03-12',
      totals: {
        // A, B, C (paid 00:40 on the 11th in Berlin), D; not E (23:30 on the 5th in Berlin).
        grossCents: 18_000,
        refundsCents: 2000,
        netCents: 16_000,
        takeCents: 10_350,
        ordersPaid: 4,
        // E, A, D, B; A's re-delivery is not counted, nor D's duplicate.
        ordersCompleted: 4,
        completedWithinPromise: 3,
        withinPromiseShare: 0.75,
        // Payment to delivery: D 3 h, E 9.5 h, A 11.5 h, B 50 h, in buckets (2,3], (9,10], (11,12],
        // (48,54]. p50: rank 2 falls in (9,10], the 2nd of 2 there so far: 9 + 1 x 1/1 = 10.
        // p90: rank 3.6 falls in (48,54] at 0.6 of its one: 48 + 6 x 0.6 = 51.6.
        turnaroundP50Hours: 10,
        turnaroundP90Hours: 51.6,
        revisionRequests: 1,
        revisionRate: 0.25,
      },
      // The platform's take is what the first-delivered orders were paid less their editors'
      // earnings: E 800 - 1 x 200, A 8,000 - 10 x 300, D 4,000 - 4 x 500, B 4,000 - 5 x 250.
      days: [
        { ...day('2031-03-06', 0, 0, 0, 1), deliveredCents: 800, editorEarningsCents: 200, takeCents: 600 },
        day('2031-03-07', 0, 0, 0, 0),
        { ...day('2031-03-08', 8000, 0, 1, 1), deliveredCents: 8000, editorEarningsCents: 3000, takeCents: 5000 },
        day('2031-03-09', 0, 0, 0, 0),
        day('2031-03-10', 4000, 0, 1, 0),
        { ...day('2031-03-11', 6000, 2000, 2, 1), deliveredCents: 4000, editorEarningsCents: 2000, takeCents: 2000 },
        { ...day('2031-03-12', 0, 0, 0, 1), deliveredCents: 4000, editorEarningsCents: 1250, takeCents: 2750 },
      ],
      weeks: [
        // Thursday 6th to Sunday 9th: E (9.5 h) and A (11.5 h). p50: rank 1 in (9,10] = 10;
        // p90: rank 1.8 in (11,12] at 0.8 = 11.8.
        {
          weekStart: '2031-03-06',
          completed: 2,
          turnaroundP50Hours: 10,
          turnaroundP90Hours: 11.8,
          withinPromiseShare: 1,
        },
        // From Monday 10th: D (3 h) and B (50 h, late). p50: rank 1 in (2,3] = 3; p90: 48 + 6 x 0.8 = 52.8.
        {
          weekStart: '2031-03-10',
          completed: 2,
          turnaroundP50Hours: 3,
          turnaroundP90Hours: 52.8,
          withinPromiseShare: 0.5,
        },
      ],
      // Delivery rounds per tier: E, A, B (late) and A's late re-delivery; D by Express, on time.
      onTimeByTier: [
        { tier: 'standard', delivered: 4, onTime: 2, onTimeShare: 0.5 },
        { tier: 'express', delivered: 1, onTime: 1, onTimeShare: 1 },
        { tier: 'rush', delivered: 0, onTime: 0, onTimeShare: null },
      ],
      jobTypes: [
        { jobTypeId: HDR.jobTypeId, name: 'HDR', orders: 3 },
        { jobTypeId: SKY.jobTypeId, name: 'Sky replacement', orders: 1 },
      ],
      // C's add-ons, by revenue.
      addOns: [
        { addOnId: 'day-to-dusk', name: 'Day-to-dusk', photos: 1, revenueCents: 600 },
        { addOnId: 'sky', name: 'Sky', photos: 2, revenueCents: 400 },
      ],
      editors: [
        // E (claim to delivery 1 h, 1 x $2.00) and B (49 h 24 min, late, 5 x $2.50, rated 6):
        // (3,600 + 177,840) s / 2 = 25.2 h. Tied on completions with Eda: by name.
        {
          editorId: BO.id,
          name: 'Bo Steady',
          completed: 2,
          averageRating: 6,
          ratings: 1,
          averageTurnaroundHours: 25.2,
          late: 1,
          earningsCents: 1450,
        },
        // A (10 h 55 min, 10 x $3.00, rated 9) and D (2 h 40 min, 4 x $5.00): 48,900 s / 2 = 6.79 h.
        {
          editorId: EDA.id,
          name: 'Eda Quick',
          completed: 2,
          averageRating: 9,
          ratings: 1,
          averageTurnaroundHours: 6.8,
          late: 0,
          earningsCents: 5000,
        },
      ],
    };
    const { poolDepth, ...figures } = view;
    expect(figures).toEqual(expected);
    // The UTC hours from 23:00 on the 5th (Berlin's midnight) to the hour of now.
    expect(poolDepth).toHaveLength((Date.parse('2031-03-12T20:00Z') - Date.parse('2031-03-05T23:00Z')) / HOUR_MS + 1);
    expect(poolDepth[0]!.hour).toBe('2031-03-05T23:00:00.000Z');
    expect(poolDepth.at(-1)!.hour).toBe('2031-03-12T20:00:00.000Z');
  });

  it('gives an hour that straddles midnight in a half-hour zone to the day it starts on', async () => {
    // Kolkata is UTC+5:30: now is 01:30 on the 13th there. D's payment at 18:40 UTC is 00:10 on
    // the 12th, but its hour starts at 23:30 on the 11th; A's delivery (20:45 UTC) is on the 9th.
    const view = await insightsView({ range: '7', tz: 'Asia/Kolkata' }, NOW);

    expect(view).toMatchObject({ from: '2031-03-07', to: '2031-03-13' });
    expect(view.days.map((d) => [d.date, d.ordersPaid, d.grossCents, d.refundsCents, d.ordersCompleted])).toEqual([
      ['2031-03-07', 0, 0, 0, 0],
      ['2031-03-08', 1, 8000, 0, 0],
      ['2031-03-09', 0, 0, 0, 1],
      ['2031-03-10', 1, 4000, 0, 0],
      ['2031-03-11', 2, 6000, 2000, 0],
      ['2031-03-12', 0, 0, 0, 2],
      ['2031-03-13', 0, 0, 0, 0],
    ]);
    // The first hour starting on the 7th there: 19:00 UTC on the 6th (00:30 local), so E's
    // delivery (08:00 UTC on the 6th) is outside.
    expect(view.poolDepth[0]!.hour).toBe('2031-03-06T19:00:00.000Z');
    expect(view.totals.ordersCompleted).toBe(3);
  });

  it('keeps the open pool’s depth of each hour’s latest pool event, carried over hours without one', async () => {
    const hours = await windowHours();
    const sampledAt = Object.fromEntries(hours.flatMap((h) => (h.pool ? [[h.hour, h.pool.sampledAt]] : [])));
    // One sample per hour with a pool event (paid, claimed, cancelled), of its latest event: A's
    // claim at 09:50, delivered before its payment at 09:15 of the same hour, is what stays.
    expect(sampledAt).toEqual({
      '2031-03-05T22': '2031-03-05T22:30:00.000Z',
      '2031-03-06T07': '2031-03-06T07:00:00.000Z',
      '2031-03-08T09': '2031-03-08T09:50:00.000Z',
      '2031-03-10T07': '2031-03-10T07:30:00.000Z',
      '2031-03-10T08': '2031-03-10T08:06:00.000Z',
      '2031-03-10T23': '2031-03-10T23:40:00.000Z',
      '2031-03-11T08': '2031-03-11T08:00:00.000Z',
      '2031-03-11T18': '2031-03-11T18:40:00.000Z',
      '2031-03-11T19': '2031-03-11T19:00:00.000Z',
    });

    const view = await insightsView({ range: '7', tz: 'Europe/Berlin' }, NOW);

    // The depth is the pool's counters as read when each sample was taken (other files move the
    // pool meanwhile), so the view is checked against the samples themselves: the last one before
    // the range (E's payment at 22:30 on the 5th), then each hour's own, carried forward.
    const before = await lastPoolSampleBefore('2031-03-05T23');
    expect(before?.sampledAt).toBe('2031-03-05T22:30:00.000Z');
    const samples = new Map(hours.flatMap((h) => (h.pool ? [[h.hour, h.pool.depth] as const] : [])));
    let depth = before!.depth;
    const carried = view.poolDepth.map(({ hour }) => {
      depth = samples.get(hourOf(hour)) ?? depth;
      return { hour, depth };
    });
    expect(view.poolDepth).toEqual(carried);
  });

  it('counts nothing twice when every event is delivered again', async () => {
    const before = await windowHours();

    await deliver(events);

    expect(await windowHours()).toEqual(before);
  });

  it('rebuilds the same items from the event log, mending an hour that drifted and removing one with nothing in it', async () => {
    const before = await windowHours();
    expect(before.map((h) => h.hour)).toContain('2031-03-08T20');
    // Drift: an hour counted too much and an editor it never had; an hour no event made.
    const key = (hour: string) => db().insightHour.get({ hour }).params<{ Key: Record<string, unknown> }>().Key;
    await dynamo().send(
      new UpdateItemCommand({
        TableName: process.env.TABLE_NAME,
        Key: marshall(key('2031-03-08T20')),
        UpdateExpression: 'ADD ordersPaid :five SET #stray = :stray',
        ExpressionAttributeNames: { '#stray': 'editor#stray' },
        ExpressionAttributeValues: marshall({ ':five': 5, ':stray': { name: 'Nobody', completed: 3 } }),
      }),
    );
    await db().insightHour.put({ hour: '2031-03-07T03', ordersPaid: 2 }).go();
    const drifted = await windowHours();
    expect(drifted).not.toEqual(before);

    const rebuilt = await rebuildInsights(WINDOW);

    // 5 payments, 4 first completions, a re-delivery (its tier's on-time figure), 2 ratings, 1 revision request, 1 refund.
    expect(rebuilt).toMatchObject({ eventsCounted: 14, hoursRemoved: 1, ordersMissing: [] });
    const after = await windowHours();
    expect(after).toEqual(before);
    // Item by item: every hour as the worker left it, its pool sample kept.
    const byHour = (hours: HourRollup[]) => new Map(hours.map((h) => [h.hour, h]));
    for (const [hour, rollup] of byHour(before)) expect(byHour(after).get(hour), hour).toEqual(rollup);
    expect(after.every((h) => hourStart(h.hour) >= WINDOW.from.getTime())).toBe(true);
  });
});

describe('GET /api/admin/insights', () => {
  let admin: Awaited<ReturnType<typeof aUserWithRoles>>;
  beforeAll(async () => {
    admin = await aUserWithRoles(['admin']);
  });

  it("shows today's payments to an admin, in their time zone, as the events arrive", async () => {
    const read = async () => {
      const response = await as(admin).get('/api/admin/insights?range=7&tz=Europe/Berlin');
      expect(response.status).toBe(200);
      return response.body as InsightsView;
    };
    const before = await read();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
    expect(before).toMatchObject({ range: '7', timeZone: 'Europe/Berlin', to: today });
    expect(before.days).toHaveLength(7);
    expect(before.poolDepth.at(-1)!.hour).toBe(new Date(hourStart(hourOf(Date.now()))).toISOString());

    // Through the whole path: the payment's outbox record, the event log, the rollup worker.
    await aPaidOrder(await aPhotographer(), { photoCount: 2 });

    // Other files pay orders today too: at least this one is added. Waiting on the count alone
    // could stop at another file's smaller order, rolled up before this one.
    const after = await waitFor(
      read,
      (view) =>
        view.totals.ordersPaid > before.totals.ordersPaid && view.totals.grossCents >= before.totals.grossCents + 1600,
      30_000,
    );
    expect(after.totals.ordersPaid).toBeGreaterThanOrEqual(before.totals.ordersPaid + 1);
    expect(after.totals.grossCents).toBeGreaterThanOrEqual(before.totals.grossCents + 1600);
    expect(after.days.at(-1)!.ordersPaid).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('refuses a photographer and an unknown time zone', async () => {
    expect((await as(await aPhotographer()).get('/api/admin/insights')).status).toBe(403);
    const unknownZone = await as(admin).get('/api/admin/insights?tz=Mars/Olympus');
    expect(unknownZone).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
    expect((await as(admin).get('/api/admin/insights?range=14')).status).toBe(400);
  });
});

import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { db } from './support';

/** The order indexes the later screens rely on, exercised against DynamoDB Local. */
const anOrder = (overrides: Record<string, unknown> = {}) => ({
  orderId: ulid(),
  orderNumber: Math.floor(Math.random() * 1_000_000),
  photographerId: `p-${ulid()}`,
  photographerName: 'Pat Shutter',
  photographerSortName: 'pat$shutter',
  jobTypeId: 'hdr',
  jobTypeName: 'HDR',
  pricePerPhotoCents: 800,
  photoCount: 12,
  totalAmountCents: 9600,
  ...overrides,
});

describe('the order indexes', () => {
  it('keeps an unpaid order out of the available pool and lists it for its photographer', async () => {
    const order = anOrder();
    await db().order.create(order).go();

    const mine = await db().order.query.byPhotographer({ photographerId: order.photographerId }).go();
    const pool = await db()
      .order.query.poolByDate({ poolPartition: 'open' })
      .where(({ orderId }, { eq }) => eq(orderId, order.orderId))
      .go({ pages: 'all' });

    expect(mine.data.map((o) => o.orderId)).toEqual([order.orderId]);
    expect(mine.data[0]).toMatchObject({
      status: 'pending_payment',
      assignment: 'unassigned',
      photographerUploadCount: 0,
    });
    expect(pool.data).toHaveLength(0);
  });

  it('puts a paid order in the pool, sorted by price with zero-padded amounts, and takes it out when claimed', async () => {
    const pool = `test-${ulid()}`;
    const cheap = anOrder({ totalAmountCents: 900, pool, poolPartition: pool });
    const dear = anOrder({ totalAmountCents: 10_000, pool, poolPartition: pool });
    await db()
      .order.create({ ...cheap, status: 'paid' })
      .go();
    const { data: created } = await db()
      .order.create({ ...dear, status: 'paid' })
      .go();

    const byPrice = await db().order.query.poolByPrice({ poolPartition: pool }).go({ order: 'desc' });
    expect(byPrice.data.map((o) => o.totalAmountCents)).toEqual([10_000, 900]);

    await db()
      .order.patch({ orderId: dear.orderId })
      .set({ status: 'in_progress', editorId: 'editor-1', claimedAt: new Date().toISOString() })
      .remove(['pool', 'poolPartition'])
      // Index keys that include createdAt need it to be re-formed (it is read-only, so not in the set).
      .composite({ createdAt: created.createdAt })
      .where(({ status }, { eq }) => eq(status, 'paid'))
      .go();

    const afterClaim = await db().order.query.poolByDate({ poolPartition: pool }).go();
    expect(afterClaim.data.map((o) => o.orderId)).toEqual([cheap.orderId]);
    const assignments = await db().order.query.byEditor({ editorId: 'editor-1', status: 'in_progress' }).go();
    expect(assignments.data.map((o) => o.orderId)).toContain(dear.orderId);
  });

  it('reads an order with its images and events in one collection query', async () => {
    const order = anOrder();
    await db().order.create(order).go();
    await db()
      .orderImage.create({
        orderId: order.orderId,
        kind: 'original',
        key: `orders/${order.orderId}/originals/a.jpg`,
        filename: 'a.jpg',
        size: 1234,
        uploadedBy: order.photographerId,
        lastModified: new Date().toISOString(),
      })
      .go();
    await db()
      .orderEvent.create({
        orderId: order.orderId,
        eventId: ulid(),
        eventType: 'order_created',
        description: 'Order created',
        occurredAt: new Date().toISOString(),
      })
      .go();

    const { marketplace } = await import('../src/data/entities');
    const detail = await marketplace().collections.orderDetail({ orderId: order.orderId }).go();

    expect(detail.data.order).toHaveLength(1);
    expect(detail.data.orderImage.map((i) => i.filename)).toEqual(['a.jpg']);
    expect(detail.data.orderEvent.map((e) => e.eventType)).toEqual(['order_created']);
  });
});

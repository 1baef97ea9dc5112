import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { publish } from '../src/adapters/queue-publisher';
import { db } from './support';

const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('the order event queue', () => {
  it('records each published event once in the order activity log, even when delivered twice', async () => {
    const orderId = ulid();
    const event = {
      eventId: ulid(),
      orderId,
      eventType: 'order_claimed',
      description: 'Order claimed by an editor',
      occurredAt: new Date().toISOString(),
      metadata: { editorId: 'e-1' },
    };

    await publish('order-events', [event, event]);

    const events = await waitFor(
      async () => (await db().orderEvent.query.byOrder({ orderId }).go()).data,
      (found) => found.length > 0,
    );
    // Give the duplicate time to be processed too, then check it changed nothing.
    await new Promise((r) => setTimeout(r, 500));
    const after = (await db().orderEvent.query.byOrder({ orderId }).go()).data;
    expect(events).toHaveLength(1);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ eventType: 'order_claimed', metadata: { editorId: 'e-1' } });
  });
});

import { marshall } from '@aws-sdk/util-dynamodb';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { publish } from '../src/adapters/queue-publisher';
import { outboxRecord } from '../src/data/transactions';
import { db, waitFor } from './support';

/** What a pipe delivers: the stream record of a new outbox item. */
const streamRecordOf = (item: Record<string, unknown>) => ({
  eventName: 'INSERT',
  eventSource: 'aws:dynamodb',
  dynamodb: {
    NewImage: marshall({ ...item, __edb_e__: 'outboxEvent', __edb_v__: '1' }, { removeUndefinedValues: true }),
  },
});

describe('the order event queue', () => {
  it('records each event once in the order activity log, even when delivered twice', async () => {
    const orderId = ulid();
    const record = streamRecordOf(
      outboxRecord({
        orderId,
        eventType: 'order_claimed',
        description: 'Order claimed by an editor',
        metadata: { editorId: 'e-1' },
      }),
    );

    await publish('order-events', [record, record]);

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

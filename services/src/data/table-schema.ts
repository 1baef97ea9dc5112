/**
 * The one table's physical shape, read by the CDK data stack and by the local stack's set-up so
 * the two cannot drift. Indexes are generic (gsi1..gsi8, string keys, all attributes projected):
 * entities map their access patterns onto them (see access-patterns.ts).
 */
export const tableKeys = { partitionKey: 'pk', sortKey: 'sk' } as const;

export const globalIndexes = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({
  indexName: `gsi${n}`,
  partitionKey: `gsi${n}pk`,
  sortKey: `gsi${n}sk`,
}));

/** Items with this attribute (epoch seconds) expire on their own: idempotency records, short-lived tokens. */
export const ttlAttribute = 'expiresAt';

/** The table's stream carries new outbox records to the queues (see pipes.ts). */
export const tableStreamViewType = 'NEW_IMAGE' as const;

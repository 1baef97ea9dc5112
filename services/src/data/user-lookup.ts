import { GetCommand } from '#document-commands';
import { dynamo, tableName } from './client';
import { globalIndexes, tableKeys } from './table-schema';

/**
 * The user record behind a request, read without building ElectroDB's User entity.
 *
 * Every signed-in request reads its caller's record first. Through ElectroDB that builds the User
 * entity (the largest model: 29 attributes, six indexes) on a function's first call, about as much
 * CPU as the GetItem itself; most routes then use other entities only. So this one read goes
 * straight to the document client, as ElectroDB sends it (the same GetItem on the same client and
 * commands), and reads the answer as ElectroDB reads it: the item is the user's when it carries the
 * entity's name and version, and it is returned without the table's key fields and ElectroDB's
 * markers. `user-lookup.test.ts` holds both to ElectroDB's own `get` on the same records: the key
 * it sends and the record it returns. Everything else about users (writes, queries, transactions)
 * stays with the entity (docs/decisions/0105-user-lookup-beside-electrodb.md).
 */
const entity = { name: 'user', version: '1', service: 'marketplace' } as const;
const markers = { entity: '__edb_e__', version: '__edb_v__' } as const;

/** Fields that belong to the table's keys or to ElectroDB's bookkeeping, never to the record. */
const keyFields = new Set<string>([
  tableKeys.partitionKey,
  tableKeys.sortKey,
  ...globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  markers.entity,
  markers.version,
]);

/** The user's key as ElectroDB writes it: `$<service>#userid_<id, lower-cased>` and `$<entity>_<version>`. */
export const userKey = (userId: string) => ({
  [tableKeys.partitionKey]: `$${entity.service}#userid_${userId.toLowerCase()}`,
  [tableKeys.sortKey]: `$${entity.name}_${entity.version}`,
});

/** The record at the user's key, or null when there is none (or what is there is no user of this version). */
export const lookUpUser = async <T>(userId: string, { consistent = false } = {}): Promise<T | null> => {
  const { Item } = await dynamo().send(
    new GetCommand({
      Key: userKey(userId),
      TableName: tableName(),
      ...(consistent ? { ConsistentRead: true } : {}),
    }),
  );
  if (!Item || Item[markers.entity] !== entity.name || Item[markers.version] !== entity.version) return null;
  const record: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(Item)) {
    if (!keyFields.has(field)) record[field] = value;
  }
  return record as T;
};

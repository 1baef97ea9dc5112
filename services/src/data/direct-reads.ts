import { tableName } from './client';
import { documentRequests } from './table-requests';
import { globalIndexes, tableKeys } from './table-schema';

/**
 * The reads most first calls make, sent straight to the document client instead of through
 * ElectroDB (docs/decisions/0117-hot-reads-beside-electrodb.md).
 *
 * ElectroDB builds an entity's model the first time a function uses the entity: about as much CPU
 * as the read itself for a small entity and several times it for the order, on every cold start.
 * A read needs none of that model, only the keys ElectroDB writes and its way of reading an item
 * back. So these reads build the keys as ElectroDB builds them (`$<service>#<attribute>_<value>`
 * for the partition, `$[<collection>#]<entity>_<version>#<attribute>_<value>` for the sort key,
 * lower-cased, numbers padded where the attribute says so), send the same GetItem, BatchGetItem or
 * Query, keep only the items the entity owns (its name and version markers) and return them as
 * ElectroDB does: without the table's key fields and the markers, sets as arrays.
 *
 * Each model below repeats the part of an entity's definition in entities.ts that its keys need.
 * `direct-reads.test.ts` holds every index of every model to ElectroDB's own `params()` and every
 * read to ElectroDB's answer on the same records, so the two cannot drift apart unseen. Writes go
 * beside ElectroDB too, from the entities' definitions (direct-writes.ts).
 */
const SERVICE = 'marketplace';
const markers = { entity: '__edb_e__', version: '__edb_v__' } as const;

interface KeyPart {
  field: string;
  composite: readonly string[];
  /** A key written from a template (`${attribute}` in place of each composite), no prefixes added. */
  template?: string;
}

export interface IndexModel {
  /** The table's index name; absent for the table itself. */
  index?: string;
  collection?: string;
  pk: KeyPart;
  sk: KeyPart;
}

export interface EntityModel {
  entity: string;
  version: string;
  indexes: Record<string, IndexModel>;
  /** Number attributes ElectroDB pads in keys (`padding` in the attribute's definition). */
  padding?: Record<string, { length: number; char: string }>;
}

const byOrder = (composite: readonly string[]): IndexModel => ({
  collection: 'orderDetail',
  pk: { field: 'pk', composite: ['orderId'] },
  sk: { field: 'sk', composite },
});
const table = (pk: readonly string[], sk: readonly string[] = []): IndexModel => ({
  pk: { field: 'pk', composite: pk },
  sk: { field: 'sk', composite: sk },
});

const gsi = (n: number, pk: readonly string[], sk: readonly string[], template?: string): IndexModel => ({
  index: `gsi${n}`,
  pk: { field: `gsi${n}pk`, composite: pk, ...(template ? { template } : {}) },
  sk: { field: `gsi${n}sk`, composite: sk },
});
/** The open pool's partitions, as entities.ts writes them. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: an ElectroDB key template, filled in by keyValue
const POOL_PARTITION_KEY = '$marketplace#pool_${poolPartition}';

/** The entities read here, each with the indexes read (names as in entities.ts). */
export const models = {
  user: {
    entity: 'user',
    version: '1',
    indexes: {
      byId: table(['userId']),
      byEmail: gsi(1, ['email'], []),
      all: gsi(2, [], ['createdAt', 'userId']),
      editors: gsi(3, ['isEditor'], ['createdAt', 'userId']),
      admins: gsi(4, ['isAdmin'], ['createdAt', 'userId']),
      byStatus: gsi(5, ['status'], ['createdAt', 'userId']),
    },
  },
  order: {
    entity: 'order',
    version: '1',
    padding: { photoCount: { length: 4, char: '0' }, totalAmountCents: { length: 12, char: '0' } },
    indexes: {
      byId: byOrder([]),
      byPhotographer: gsi(1, ['photographerId'], ['createdAt', 'orderId']),
      poolByDate: gsi(2, ['poolPartition'], ['hasRequirements', 'createdAt', 'orderId'], POOL_PARTITION_KEY),
      poolByPrice: gsi(3, ['poolPartition'], ['hasRequirements', 'totalAmountCents', 'orderId'], POOL_PARTITION_KEY),
      poolByDue: gsi(8, ['poolPartition'], ['poolDueKey'], POOL_PARTITION_KEY),
      byEditor: gsi(4, ['editorId'], ['status', 'createdAt', 'orderId']),
      byAssignment: gsi(5, ['assignment'], ['createdAt', 'orderId']),
      byAssignmentPhotos: gsi(6, ['assignment'], ['photoCount', 'createdAt', 'orderId']),
      byAssignmentPhotographer: gsi(7, ['assignment'], ['photographerSortName', 'createdAt', 'orderId']),
    },
  },
  orderImage: { entity: 'orderImage', version: '1', indexes: { byOrder: byOrder(['kind', 'key']) } },
  orderSearchWord: {
    entity: 'orderSearchWord',
    version: '1',
    indexes: { byWord: table(['initial'], ['word', 'orderId']) },
  },
  orderAddOns: { entity: 'orderAddOns', version: '1', indexes: { byOrder: table(['orderId']) } },
  counter: { entity: 'counter', version: '1', indexes: { byScope: table(['scope'], ['name']) } },
  jobType: {
    entity: 'jobType',
    version: '1',
    indexes: {
      byId: table(['jobTypeId']),
      all: {
        index: 'gsi1',
        pk: { field: 'gsi1pk', composite: [] },
        sk: { field: 'gsi1sk', composite: ['name', 'jobTypeId'] },
      },
    },
  },
  editorRate: { entity: 'editorRate', version: '1', indexes: { byEditor: table(['editorId'], ['jobTypeId']) } },
  userEmail: { entity: 'userEmail', version: '1', indexes: { byEmail: table(['email']) } },
  invitation: {
    entity: 'invitation',
    version: '1',
    indexes: { byToken: table(['tokenHash']), byEmail: gsi(1, ['email'], ['createdAt']) },
  },
  jobTypeName: { entity: 'jobTypeName', version: '1', indexes: { byName: table(['nameKey']) } },
  addOn: {
    entity: 'addOn',
    version: '1',
    padding: { sortOrder: { length: 4, char: '0' } },
    indexes: { byId: table(['addOnId']), all: gsi(1, [], ['sortOrder', 'addOnId']) },
  },
  payout: { entity: 'payout', version: '1', indexes: { byEditor: table(['editorId'], ['payoutId']) } },
  earning: {
    entity: 'earning',
    version: '1',
    indexes: {
      byOrder: table(['orderId']),
      byEditor: gsi(1, ['editorId'], ['bookedAt', 'orderId']),
      releaseQueue: gsi(2, ['releaseQueue'], ['nextAttemptAt', 'orderId']),
      awaitingAccount: gsi(3, ['awaitingAccountOf'], ['orderId']),
      inTransit: gsi(4, ['inTransitOf'], ['bookedAt', 'orderId']),
      transfers: gsi(5, ['transferLedger'], ['bookedAt', 'orderId']),
    },
  },
  bankPayout: {
    entity: 'bankPayout',
    version: '1',
    indexes: { byEditor: table(['editorId'], ['createdAt', 'payoutId']) },
  },
  orderRevision: {
    entity: 'orderRevision',
    version: '1',
    padding: { round: { length: 3, char: '0' } },
    indexes: { byOrder: byOrder(['round']) },
  },
  orderImageMarks: { entity: 'orderImageMarks', version: '1', indexes: { byOrder: table(['orderId'], ['key']) } },
  orderEvent: { entity: 'orderEvent', version: '1', indexes: { byOrder: byOrder(['eventId']) } },
  feedback: {
    entity: 'feedback',
    version: '1',
    indexes: {
      byId: table(['feedbackId']),
      byUser: gsi(1, ['userId'], ['createdAt', 'feedbackId']),
      byStatus: gsi(2, ['status'], ['createdAt', 'feedbackId']),
      byTypeAndStatus: gsi(3, ['type', 'status'], ['createdAt', 'feedbackId']),
    },
  },
  payment: {
    entity: 'payment',
    version: '1',
    indexes: { byIntent: table(['paymentIntentId']), byOrder: gsi(1, ['orderId'], ['createdAt']) },
  },
  billingEntry: {
    entity: 'billingEntry',
    version: '1',
    indexes: { byPhotographer: table(['photographerId'], ['entryId']), byOrder: gsi(1, ['orderId'], ['entryId']) },
  },
  processedMessage: {
    entity: 'processedMessage',
    version: '1',
    indexes: { byMessage: table(['source', 'messageId']) },
  },
  download: { entity: 'download', version: '1', indexes: { byOrder: byOrder(['kind']) } },
  orderDelivery: { entity: 'orderDelivery', version: '1', indexes: { byOrder: byOrder([]) } },
  rendition: {
    entity: 'rendition',
    version: '1',
    padding: { longEdge: { length: 5, char: '0' } },
    indexes: { byOrder: byOrder(['longEdge', 'editedKey']) },
  },
  shareLink: {
    entity: 'shareLink',
    version: '1',
    indexes: { byToken: table(['tokenHash']), byOrder: gsi(1, ['orderId'], ['linkId']) },
  },
  insightHour: {
    entity: 'insightHour',
    version: '1',
    indexes: {
      byHour: {
        pk: { field: 'pk', composite: [], template: '$marketplace#insights' },
        sk: { field: 'sk', composite: ['hour'] },
      },
    },
  },
  securityActivity: {
    entity: 'securityActivity',
    version: '1',
    indexes: { byUser: table(['userId'], ['at', 'activityId']) },
  },
  emailChange: { entity: 'emailChange', version: '1', indexes: { byToken: table(['tokenHash']) } },
  dataExport: { entity: 'dataExport', version: '1', indexes: { byUser: table(['userId']) } },
  accountDeletion: {
    entity: 'accountDeletion',
    version: '1',
    indexes: { byUser: table(['userId']), purgeQueue: gsi(1, ['purgeQueue'], ['purgeAfter', 'userId']) },
  },
} as const satisfies Record<string, EntityModel>;

type Composites = Record<string, string | number | undefined>;

const formatted = (model: EntityModel, attribute: string, value: string | number) => {
  const padding = model.padding?.[attribute];
  return padding ? String(value).padStart(padding.length, padding.char) : String(value);
};

/**
 * A key as ElectroDB's `_makeKey` writes it. With `partial`, the key stops at the first composite
 * not given, after its label (a query's begins_with prefix); otherwise every composite must be given.
 */
const keyValue = (
  model: EntityModel,
  prefix: string,
  part: KeyPart,
  values: Composites,
  partial: false | 'with label' | 'without label',
) => {
  if (part.template) {
    return part.composite
      .reduce((key, attribute) => {
        const value = values[attribute];
        if (value === undefined && !partial) throw new Error(`${model.entity}: the key needs ${attribute}`);
        return key.replace(`\${${attribute}}`, value === undefined ? '' : formatted(model, attribute, value));
      }, part.template)
      .toLowerCase();
  }
  let key = prefix;
  for (const attribute of part.composite) {
    const value = values[attribute];
    if (value === undefined) {
      if (!partial) throw new Error(`${model.entity}: the key needs ${attribute}`);
      // As ElectroDB does: a query's own composites keep the first missing one's label, a range's do not.
      if (partial === 'with label') key += `#${attribute}_`;
      break;
    }
    key += `#${attribute}_${formatted(model, attribute, value)}`;
  }
  return key.toLowerCase();
};

const sortKeyPrefix = (model: EntityModel, index: IndexModel) =>
  `${index.collection ? `$${index.collection}#` : '$'}${model.entity}_${model.version}`;

const partitionKey = (model: EntityModel, index: IndexModel, values: Composites) =>
  keyValue(model, `$${SERVICE}`, index.pk, values, false);

/**
 * One part of the item's key on this index ('pk' or 'sk'), every composite of that part given;
 * with `partial`, a part whose composites are not given stops at the first one, after its label
 * (as ElectroDB writes an index's other part when a record gives only one part's composites).
 */
export const indexKeyPart = (
  model: EntityModel,
  indexName: string,
  type: 'pk' | 'sk',
  values: Composites,
  partial = false,
) => {
  const index = model.indexes[indexName]!;
  const mode = partial ? 'with label' : false;
  return type === 'pk'
    ? keyValue(model, `$${SERVICE}`, index.pk, values, mode)
    : keyValue(model, sortKeyPrefix(model, index), index.sk, values, mode);
};

/** The item's key on this index, every composite given. */
export const keyOf = (model: EntityModel, indexName: string, values: Composites) => {
  const index = model.indexes[indexName]!;
  return {
    [index.pk.field]: partitionKey(model, index, values),
    [index.sk.field]: keyValue(model, sortKeyPrefix(model, index), index.sk, values, false),
  };
};

/** A query's sort-key value: the composites given, up to the first one not given (its label included). */
export const querySortKey = (model: EntityModel, indexName: string, values: Composites) => {
  const index = model.indexes[indexName]!;
  return keyValue(model, sortKeyPrefix(model, index), index.sk, values, 'with label');
};

/** Fields that belong to the table's keys or to ElectroDB's bookkeeping, never to the record. */
const keyFields = new Set<string>([
  tableKeys.partitionKey,
  tableKeys.sortKey,
  ...globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  markers.entity,
  markers.version,
]);

const owns = (model: EntityModel, item: Record<string, unknown>) =>
  item[markers.entity] === model.entity && item[markers.version] === model.version;

/** The item as ElectroDB returns it: no key fields or markers; a set (the document client's Set) as an array. */
export const recordOf = <T>(item: Record<string, unknown>): T => {
  const record: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(item)) {
    if (!keyFields.has(field)) record[field] = value instanceof Set ? [...value] : value;
  }
  return record as T;
};

/** The name of the model's index on the table itself (the one a get and a batch get read). */
const tableIndexOf = (model: EntityModel) => Object.keys(model.indexes).find((name) => !model.indexes[name]!.index)!;

/** The record at this key (the table's index), or null where ElectroDB's `get` gives null. */
export const getRecord = async <T>(
  model: EntityModel,
  values: Composites,
  { consistent = false }: { consistent?: boolean } = {},
): Promise<T | null> => {
  const indexName = tableIndexOf(model);
  const { Item } = await documentRequests.getItem({
    Key: keyOf(model, indexName, values),
    TableName: tableName(),
    ...(consistent ? { ConsistentRead: true } : {}),
  });
  return Item && owns(model, Item) ? recordOf<T>(Item) : null;
};

/**
 * The records at these keys (the table's index), by BatchGetItem in requests of 100 as ElectroDB
 * sends them; keys DynamoDB left unprocessed come back as composites, for `batchGetAll` to ask again.
 */
export const getRecords = async <T>(
  model: EntityModel,
  keys: Composites[],
): Promise<{ data: T[]; unprocessed: Composites[] }> => {
  const indexName = tableIndexOf(model);
  const index = model.indexes[indexName]!;
  const data: T[] = [];
  const unprocessed: Composites[] = [];
  const keyText = (key: Record<string, unknown>) => `${key[index.pk.field]}\u0000${key[index.sk.field]}`;
  // One entry per key: BatchGetItem refuses a request that names a key twice.
  const byKey = new Map<string, { key: Record<string, string>; values: Composites }>();
  for (const values of keys) {
    const key = keyOf(model, indexName, values);
    byKey.set(keyText(key), { key, values });
  }
  const all = [...byKey.values()].map((entry) => entry.key);
  const answers = await Promise.all(
    Array.from({ length: Math.ceil(all.length / 100) }, (_, i) =>
      documentRequests.batchGetItem({ RequestItems: { [tableName()]: { Keys: all.slice(i * 100, i * 100 + 100) } } }),
    ),
  );
  for (const answer of answers) {
    for (const item of answer.Responses?.[tableName()] ?? []) if (owns(model, item)) data.push(recordOf<T>(item));
    for (const key of answer.UnprocessedKeys?.[tableName()]?.Keys ?? []) {
      const asked = byKey.get(keyText(key));
      if (asked) unprocessed.push(asked.values);
    }
  }
  return { data, unprocessed };
};

type Range =
  | { kind: 'is' }
  | { kind: 'begins'; values: Composites }
  | { kind: 'between'; from: Composites; to: Composites }
  | { kind: 'lt' | 'lte' | 'gt' | 'gte'; values: Composites };

const comparisons = { lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

export interface QueryOptions {
  order?: 'asc' | 'desc';
  /** DynamoDB's Limit on each request. */
  limit?: number;
  /** Where the last page stopped (ElectroDB's cursor: the last evaluated key as base64url JSON). */
  cursor?: string | null;
  /** How many requests at most (1 unless told), or all of them. */
  pages?: number | 'all';
  consistent?: boolean;
}

/** ElectroDB's cursor: the last evaluated key as base64url JSON (null when the read reached the end). */
const cursorOf = (key: Record<string, unknown> | undefined) =>
  key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null;

/**
 * A query on one index as ElectroDB builds it: `query.<index>(composites)`, optionally narrowed by
 * `.begins`, `.between` or a comparison on the sort key's further composites, then `.go(options)`
 * for one page (`limit`, `cursor`, `order`) or every page (`pages: 'all'`).
 */
/**
 * One condition of a filter on the items read: an attribute equal to a value, starting with one
 * (`begins`), or a list holding one (`contains`); `not` negates it. Conditions are joined by AND.
 */
export interface FilterCondition {
  attribute: string;
  op: 'eq' | 'begins' | 'contains';
  value: string | number | boolean;
  not?: boolean;
}

const filterExpression = (conditions: readonly FilterCondition[]) => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts = conditions.map((c, i) => {
    const name = `#f_${c.attribute}`;
    const value = `:f${i}`;
    names[name] = c.attribute;
    values[value] = c.value;
    const test =
      c.op === 'eq'
        ? `${name} = ${value}`
        : c.op === 'begins'
          ? `begins_with(${name}, ${value})`
          : `contains(${name}, ${value})`;
    return c.not ? `NOT ${test}` : test;
  });
  return { expression: parts.join(' AND '), names, values };
};

export class DirectQuery<T> {
  constructor(
    private readonly model: EntityModel,
    private readonly indexName: string,
    private readonly values: Composites,
    private readonly range: Range = { kind: 'is' },
    private readonly conditions: readonly FilterCondition[] = [],
  ) {}

  private narrowed(range: Range) {
    return new DirectQuery<T>(this.model, this.indexName, this.values, range, this.conditions);
  }

  /** Only the items meeting every condition (a FilterExpression: the items are read, then left out). */
  where(conditions: readonly FilterCondition[]) {
    return new DirectQuery<T>(this.model, this.indexName, this.values, this.range, [...this.conditions, ...conditions]);
  }
  // The composites of any record type (an interface has no index signature, so `object`).
  begins(values: object) {
    return this.narrowed({ kind: 'begins', values: values as Composites });
  }
  between(from: object, to: object) {
    return this.narrowed({ kind: 'between', from: from as Composites, to: to as Composites });
  }
  lt(values: object) {
    return this.narrowed({ kind: 'lt', values: values as Composites });
  }
  lte(values: object) {
    return this.narrowed({ kind: 'lte', values: values as Composites });
  }
  gt(values: object) {
    return this.narrowed({ kind: 'gt', values: values as Composites });
  }
  gte(values: object) {
    return this.narrowed({ kind: 'gte', values: values as Composites });
  }

  /** The Query's key condition and its values, as ElectroDB's `params()` has them. */
  keyCondition() {
    const { model, values } = this;
    const range = this.range;
    const index = model.indexes[this.indexName]!;
    const prefix = sortKeyPrefix(model, index);
    const rangeKey = (more: Composites) => keyValue(model, prefix, index.sk, { ...values, ...more }, 'without label');
    const names = { '#pk': index.pk.field, '#sk1': index.sk.field };
    const pk = partitionKey(model, index, values);
    switch (range.kind) {
      case 'is': {
        // Every sort-key composite given: that key exactly, not the keys starting with it.
        const exact = index.sk.composite.every((attribute) => values[attribute] !== undefined);
        return {
          expression: exact ? '#pk = :pk and #sk1 = :sk1' : '#pk = :pk and begins_with(#sk1, :sk1)',
          names,
          values: { ':pk': pk, ':sk1': querySortKey(model, this.indexName, values) },
        };
      }
      case 'begins':
        return {
          expression: '#pk = :pk and begins_with(#sk1, :sk1)',
          names,
          values: { ':pk': pk, ':sk1': rangeKey(range.values) },
        };
      case 'between':
        return {
          expression: '#pk = :pk and #sk1 BETWEEN :sk1 AND :sk2',
          names,
          values: { ':pk': pk, ':sk1': rangeKey(range.from), ':sk2': rangeKey(range.to) },
        };
      default:
        return {
          expression: `#pk = :pk and #sk1 ${comparisons[range.kind]} :sk1`,
          names,
          values: { ':pk': pk, ':sk1': rangeKey(range.values) },
        };
    }
  }

  /** The Query's input without paging, as ElectroDB's `params()` gives it (for a query run by hand). */
  params() {
    const index = this.model.indexes[this.indexName]!;
    const condition = this.keyCondition();
    const filter = filterExpression(this.conditions);
    return {
      TableName: tableName(),
      ...(index.index ? { IndexName: index.index } : {}),
      KeyConditionExpression: condition.expression,
      ExpressionAttributeNames: { ...(condition.names as Record<string, string>), ...filter.names },
      ExpressionAttributeValues: { ...(condition.values as Record<string, unknown>), ...filter.values },
      ...(filter.expression ? { FilterExpression: filter.expression } : {}),
    };
  }

  async go({ order = 'asc', limit, cursor, pages = 1, consistent }: QueryOptions = {}) {
    const index = this.model.indexes[this.indexName]!;
    const data: T[] = [];
    let start: Record<string, unknown> | undefined;
    if (cursor) {
      // As ElectroDB does, only the fields of this index's key and the table's are taken from a cursor.
      const given = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as Record<string, unknown>;
      start = {};
      for (const field of [index.pk.field, index.sk.field, tableKeys.partitionKey, tableKeys.sortKey]) {
        if (given[field] !== undefined) start[field] = given[field];
      }
    }
    let requests = 0;
    do {
      const page = await documentRequests.query({
        ...this.params(),
        ...(order === 'desc' ? { ScanIndexForward: false } : {}),
        ...(limit !== undefined ? { Limit: limit } : {}),
        ...(consistent ? { ConsistentRead: true } : {}),
        ...(start ? { ExclusiveStartKey: start } : {}),
      });
      for (const item of page.Items ?? []) if (owns(this.model, item)) data.push(recordOf<T>(item));
      start = page.LastEvaluatedKey;
      requests += 1;
    } while (start && (pages === 'all' || requests < pages));
    return { data, cursor: cursorOf(start) };
  }
}

/**
 * The composites an index's key holds, read back from an ElectroDB cursor (where a page stopped),
 * as ElectroDB's `createConversions(...).byAccessPattern[index].fromCursor.toComposite` reads them:
 * each value as the key has it, lower-cased. Keys written from a template are not read back.
 */
export const cursorComposites = (model: EntityModel, indexName: string, cursor: string): Composites => {
  const index = model.indexes[indexName]!;
  const key = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as Record<string, unknown>;
  const composites: Composites = {};
  const read = (part: KeyPart, prefix: string) => {
    const value = key[part.field];
    if (part.template || typeof value !== 'string' || !value.startsWith(prefix)) return;
    let rest = value.slice(prefix.length);
    part.composite.forEach((attribute, i) => {
      const label = `#${attribute.toLowerCase()}_`;
      if (!rest.startsWith(label)) return;
      const next = part.composite[i + 1];
      const end = next === undefined ? -1 : rest.indexOf(`#${next.toLowerCase()}_`, label.length);
      composites[attribute] = end === -1 ? rest.slice(label.length) : rest.slice(label.length, end);
      rest = end === -1 ? '' : rest.slice(end);
    });
  };
  read(index.pk, `$${SERVICE}`);
  read(index.sk, sortKeyPrefix(model, index).toLowerCase());
  return composites;
};

/** `query.<index>(composites)` of the entity, read beside ElectroDB. */
export const query = <T>(model: EntityModel, indexName: string, values: object) =>
  new DirectQuery<T>(model, indexName, values as Composites);

/**
 * Every record of an index's partition whose sort key starts with the composites given (in their
 * order, up to the first one not given; the one key when all are given), in key order or reversed:
 * ElectroDB's `query.<index>(composites).go({ pages: 'all', order })`.
 */
export const queryAll = async <T>(
  model: EntityModel,
  indexName: string,
  values: Composites,
  { order = 'asc' }: { order?: 'asc' | 'desc' } = {},
): Promise<T[]> => (await query<T>(model, indexName, values).go({ order, pages: 'all' })).data;

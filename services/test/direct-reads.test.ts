import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createConversions } from 'electrodb';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { batchGetAll } from '../src/data/batch-get';
import { dynamo, tableName } from '../src/data/client';
import {
  cursorComposites,
  type EntityModel,
  getRecord,
  getRecords,
  keyOf,
  models,
  query,
  queryAll,
  querySortKey,
} from '../src/data/direct-reads';
import { marketplace } from '../src/data/entities';
import { aDataLayerOrder, db, uniqueEmail } from './support';

/**
 * The reads sent beside ElectroDB (direct-reads.ts) must send the keys ElectroDB sends and return
 * what ElectroDB returns, for every index each model declares, and leave out what the entity does
 * not own.
 */
type AnyEntity = {
  get: (key: unknown) => {
    params: () => { Key: Record<string, unknown> };
    go: (o?: unknown) => Promise<{ data: unknown }>;
  };
  query: Record<
    string,
    (values: unknown) => {
      params: () => {
        ExpressionAttributeValues: Record<string, unknown>;
        IndexName?: string;
        KeyConditionExpression: string;
      };
      go: (o?: unknown) => Promise<{ data: unknown[] }>;
    }
  >;
  schema: { indexes: Record<string, { index?: string }> };
};
const entityOf = (name: keyof typeof models) => marketplace().entities[name] as unknown as AnyEntity;
const modelNames = Object.keys(models) as (keyof typeof models)[];

/** Values for every composite, with capitals, digits and punctuation ElectroDB keeps (and lower-cases); numbers where padded. */
const sample = (composites: readonly string[], seed: string, model?: EntityModel) =>
  Object.fromEntries(
    composites.map((c, i) => [c, model?.padding?.[c] ? 40 + i : `${c.slice(0, 3).toUpperCase()}-${seed}_${i}.X`]),
  );

type KeyDefinition = { field: string; composite: readonly string[]; template?: string };
type Params = {
  KeyConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
  IndexName?: string;
  FilterExpression?: string;
};
type Narrowable = {
  params: () => Params;
  begins: (v: unknown) => { params: () => Params };
  between: (a: unknown, b: unknown) => { params: () => Params };
  lt: (v: unknown) => { params: () => Params };
  lte: (v: unknown) => { params: () => Params };
  gt: (v: unknown) => { params: () => Params };
  gte: (v: unknown) => { params: () => Params };
};

/** The composites read back from a cursor: those ElectroDB reads, the sort key's among them. */
const expectCompositesAsElectroDb = (
  name: keyof typeof models,
  indexName: string,
  cursor: string,
  sortComposites: string[],
) => {
  const conversions = createConversions(marketplace().entities[name] as never) as unknown as {
    byAccessPattern: Record<string, { fromCursor: { toComposite: (c: string) => Record<string, unknown> } }>;
  };
  const electro = conversions.byAccessPattern[indexName]!.fromCursor.toComposite(cursor);
  const direct = cursorComposites(models[name], indexName, cursor);
  for (const attribute of sortComposites) expect(direct[attribute], `${name}.${indexName} ${attribute}`).toBeDefined();
  for (const [attribute, value] of Object.entries(direct))
    expect(value, `${name}.${indexName} ${attribute}`).toBe(electro[attribute]);
};

describe('reads beside ElectroDB', () => {
  it('declares every index of each entity as the entity does, and the numbers it pads', () => {
    for (const name of modelNames) {
      const model: EntityModel = models[name];
      const schema = entityOf(name).schema as unknown as {
        indexes: Record<string, { index?: string; collection?: string; pk: KeyDefinition; sk: KeyDefinition }>;
        attributes: Record<string, { padding?: { length: number; char: string } }>;
      };
      expect(Object.keys(model.indexes).sort(), name).toEqual(Object.keys(schema.indexes).sort());
      for (const [indexName, index] of Object.entries(model.indexes)) {
        const declared = schema.indexes[indexName]!;
        const where = `${name}.${indexName}`;
        expect(index.index, where).toBe(declared.index);
        expect(index.collection, where).toBe(declared.collection);
        for (const part of ['pk', 'sk'] as const) {
          expect(index[part].field, where).toBe(declared[part].field);
          expect([...index[part].composite], where).toEqual([...declared[part].composite]);
          expect(index[part].template, where).toBe(declared[part].template);
        }
      }
      const padded = Object.fromEntries(
        Object.entries(schema.attributes).flatMap(([attribute, a]) => (a.padding ? [[attribute, a.padding]] : [])),
      );
      expect(model.padding ?? {}, name).toEqual(padded);
    }
  });

  it('builds the key ElectroDB builds for every index, whatever the case and characters', () => {
    for (const name of modelNames) {
      const model: EntityModel = models[name];
      for (const [indexName, index] of Object.entries(model.indexes)) {
        for (const seed of ['a1', 'AbC', 'x@Y.z']) {
          const values = sample([...index.pk.composite, ...index.sk.composite], seed);
          if (!index.index)
            expect(keyOf(model, indexName, values), `${name}`).toEqual(entityOf(name).get(values).params().Key);
          // A query with every prefix of the sort key's composites: ElectroDB's begins_with value.
          for (let given = 0; given <= index.sk.composite.length; given++) {
            const partial = sample([...index.pk.composite, ...index.sk.composite.slice(0, given)], seed);
            const params = entityOf(name).query[indexName]!(partial).params();
            expect(params.KeyConditionExpression).toBe(
              given === index.sk.composite.length
                ? '#pk = :pk and #sk1 = :sk1'
                : '#pk = :pk and begins_with(#sk1, :sk1)',
            );
            expect(params.IndexName).toBe(index.index);
            const key = keyOf(model, indexName, { ...sample(index.sk.composite, seed), ...partial });
            expect(params.ExpressionAttributeValues[':pk'], `${name}.${indexName}`).toBe(key[index.pk.field]);
            const skPrefix = params.ExpressionAttributeValues[':sk1'] as string;
            expect(key[index.sk.field]!.startsWith(skPrefix), `${name}.${indexName} ${given}`).toBe(true);
            expect(querySortKey(model, indexName, partial), `${name}.${indexName} ${given}`).toBe(skPrefix);
          }
        }
      }
    }
  });

  it('builds the key condition ElectroDB builds for every index: the query, begins, between and each comparison', () => {
    for (const name of modelNames) {
      const model: EntityModel = models[name];
      for (const [indexName, index] of Object.entries(model.indexes)) {
        const sk = index.sk.composite;
        for (let given = 0; given <= sk.length; given++) {
          const values = sample([...index.pk.composite, ...sk.slice(0, given)], 'Q1', model);
          const rest = sk.slice(given);
          // The range's composites: the next one, and all the rest; an empty string and a number as ElectroDB is given them.
          const ranges = rest.length ? [sample(rest.slice(0, 1), 'R1', model), sample(rest, 'R2', model)] : [{}];
          const electro = entityOf(name).query[indexName]!(values) as unknown as Narrowable;
          const direct = query(model, indexName, values);
          const cases: [string, Params, ReturnType<typeof direct.keyCondition>][] = [
            ['is', electro.params(), direct.keyCondition()],
          ];
          for (const r of ranges) {
            cases.push(['begins', electro.begins(r).params(), direct.begins(r).keyCondition()]);
            cases.push([
              'between',
              electro.between(r, ranges.at(-1)).params(),
              direct.between(r, ranges.at(-1)!).keyCondition(),
            ]);
            for (const op of ['lt', 'lte', 'gt', 'gte'] as const) {
              cases.push([op, electro[op](r).params(), direct[op](r).keyCondition()]);
            }
          }
          for (const [kind, params, condition] of cases) {
            const where = `${name}.${indexName} ${kind} (${given} given)`;
            expect(params.KeyConditionExpression, where).toBe(condition.expression);
            expect(params.ExpressionAttributeNames, where).toEqual(condition.names);
            expect(params.ExpressionAttributeValues, where).toEqual(condition.values);
            expect(params.IndexName, where).toBe(index.index);
            expect(params.FilterExpression, where).toBeUndefined();
          }
        }
      }
    }
  });

  it('reads a page and the next by cursor as ElectroDB does: the same records and the same cursor', async () => {
    const photographer = { uid: `paged-${ulid()}` };
    for (let i = 0; i < 5; i++) await aDataLayerOrder(photographer);
    for (const order of ['asc', 'desc'] as const) {
      let electroCursor: string | null = null;
      let directCursor: string | null = null;
      let pages = 0;
      do {
        const electro = await entityOf('order').query.byPhotographer!({ photographerId: photographer.uid }).go({
          order,
          limit: 2,
          cursor: electroCursor,
        });
        const direct = await query(models.order, 'byPhotographer', { photographerId: photographer.uid }).go({
          order,
          limit: 2,
          cursor: directCursor,
        });
        expect(direct.data).toEqual(electro.data);
        expect(direct.cursor).toBe((electro as unknown as { cursor: string | null }).cursor);
        electroCursor = (electro as unknown as { cursor: string | null }).cursor;
        directCursor = direct.cursor;
        if (electroCursor)
          expectCompositesAsElectroDb('order', 'byPhotographer', electroCursor, ['createdAt', 'orderId']);
        pages += 1;
      } while (electroCursor && pages < 10);
      expect(pages).toBe(3);
    }
  });

  it('reads back where a page of a user index stopped as ElectroDB does', async () => {
    await db()
      .user.create({ userId: `Cursor-A-${ulid()}`, email: uniqueEmail('cursor'), isEditor: 'editor' })
      .go();
    await db()
      .user.create({ userId: `Cursor-B-${ulid()}`, email: uniqueEmail('cursor'), isEditor: 'editor' })
      .go();
    for (const [indexName, values] of [
      ['all', {}],
      ['editors', { isEditor: 'editor' }],
      ['byStatus', { status: 'verified' }],
    ] as const) {
      const { cursor } = await query(models.user, indexName, values).go({ order: 'desc', limit: 1 });
      expect(cursor, indexName).not.toBeNull();
      expectCompositesAsElectroDb('user', indexName, cursor!, ['createdAt', 'userId']);
    }
  });

  it('filters as ElectroDB where clauses do: equal, starting with (and not), a list holding a value', async () => {
    const base = ulid();
    const editor = 'Filter-Editor';
    const made = [
      { userId: `a-${base}`, roles: ['editor'], isActive: true },
      { userId: `b-${base}`, roles: ['editor', 'admin'], isActive: false },
      { userId: `invited-${base}`, roles: ['editor'], isActive: true },
    ];
    for (const m of made) {
      await db()
        .user.create({ ...m, email: uniqueEmail('filter'), isEditor: `${editor}-${base}` })
        .go();
    }
    const values = { isEditor: `${editor}-${base}` };
    // A fresh chain each time: ElectroDB's where clauses add to the chain they are called on.
    const electro = () => db().user.query.editors(values);
    const direct = query(models.user, 'editors', values);
    const cases = [
      [
        electro().where(({ isActive }, { eq }) => eq(isActive, true)),
        direct.where([{ attribute: 'isActive', op: 'eq', value: true }]),
      ],
      [
        electro().where(({ userId }, { begins }) => `NOT ${begins(userId, 'invited-')}`),
        direct.where([{ attribute: 'userId', op: 'begins', value: 'invited-', not: true }]),
      ],
      [
        electro().where(
          ({ roles, isActive }, { contains, eq }) => `${contains(roles, 'admin')} AND ${eq(isActive, false)}`,
        ),
        direct.where([
          { attribute: 'roles', op: 'contains', value: 'admin' },
          { attribute: 'isActive', op: 'eq', value: false },
        ]),
      ],
    ] as const;
    expect((await electro().go({ pages: 'all' })).data).toHaveLength(made.length);
    for (const [e, d] of cases) {
      const expected = (await e.go({ pages: 'all' })).data;
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(made.length);
      expect((await d.go({ pages: 'all' })).data).toEqual(expected);
    }
  });

  it('returns what ElectroDB returns: an order, its counters, images, job types and rates, and null for none', async () => {
    const photographer = { uid: `direct-${ulid()}` };
    const order = await aDataLayerOrder(photographer);
    const orderId = order.orderId;
    const scope = `direct-scope-${ulid()}`;
    await db().counter.create({ scope, name: 'b', value: 2 }).go();
    await db().counter.create({ scope, name: 'A', value: 1 }).go();
    const editorId = `Direct-Editor-${ulid()}`;
    for (const jobTypeId of ['hdr', 'Twilight-1']) {
      await db().editorRate.create({ editorId, jobTypeId, ratePerPhotoCents: 300 }).go();
    }
    for (const [kind, key] of [
      ['original', `originals/${orderId}/b.jpg`],
      ['original', `originals/${orderId}/A.jpg`],
      ['edited', `edited/${orderId}/a.jpg`],
    ] as const) {
      await db()
        .orderImage.create({
          orderId,
          kind,
          key,
          filename: key.split('/').at(-1)!,
          size: 10,
          uploadedBy: photographer.uid,
          lastModified: new Date().toISOString(),
        })
        .go();
    }

    for (const consistent of [false, true]) {
      expect(await getRecord(models.order, { orderId }, { consistent })).toEqual(
        (await entityOf('order').get({ orderId }).go({ consistent })).data,
      );
    }
    expect(await getRecord(models.order, { orderId: ulid() })).toBeNull();
    expect(await queryAll(models.counter, 'byScope', { scope })).toEqual(
      (await entityOf('counter').query.byScope!({ scope }).go({ pages: 'all' })).data,
    );
    expect(await queryAll(models.editorRate, 'byEditor', { editorId })).toEqual(
      (await entityOf('editorRate').query.byEditor!({ editorId }).go({ pages: 'all' })).data,
    );
    for (const values of [{ orderId }, { orderId, kind: 'original' }, { orderId, kind: 'edited' }]) {
      const expected = (await entityOf('orderImage').query.byOrder!(values).go({ pages: 'all' })).data;
      expect(expected.length).toBeGreaterThan(0);
      expect(await queryAll(models.orderImage, 'byOrder', values)).toEqual(expected);
    }
    expect(await queryAll(models.jobType, 'all', {})).toEqual(
      (await entityOf('jobType').query.all!({}).go({ pages: 'all' })).data,
    );
    for (const order of ['asc', 'desc'] as const) {
      expect(await queryAll(models.counter, 'byScope', { scope }, { order })).toEqual(
        (await entityOf('counter').query.byScope!({ scope }).go({ pages: 'all', order })).data,
      );
    }

    // The batch read: the same records (in any order), none for keys without one.
    const keys = [
      { scope, name: 'A' },
      { scope, name: 'b' },
      { scope, name: 'missing' },
    ];
    const direct = await batchGetAll((k: typeof keys) => getRecords(models.counter, k), keys);
    const electro = await batchGetAll((k: typeof keys) => db().counter.get(k).go(), keys);
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect((direct as { name: string }[]).sort(byName)).toEqual((electro as { name: string }[]).sort(byName));
    expect(direct).toHaveLength(2);
  });

  it('leaves out what the entity does not own: another entity or version at the same key', async () => {
    const orderId = `foreign-${ulid()}`;
    const key = keyOf(models.order, 'byId', { orderId });
    for (const [entity, version] of [
      ['user', '1'],
      ['order', '2'],
    ] as const) {
      await dynamo().send(
        new PutCommand({ TableName: tableName(), Item: { ...key, __edb_e__: entity, __edb_v__: version, orderId } }),
      );
      expect((await entityOf('order').get({ orderId }).go()).data).toBeNull();
      expect(await getRecord(models.order, { orderId })).toBeNull();
      expect((await getRecords(models.order, [{ orderId }])).data).toEqual([]);
    }
  });
});

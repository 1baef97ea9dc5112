import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ensureTable } from '../local/table-setup';
import { dynamo } from '../src/data/client';
import { writerOf } from '../src/data/direct-writes';
import { marketplace } from '../src/data/entities';
import { definitions } from '../src/data/entity-definitions';

/**
 * The writes sent beside ElectroDB (direct-writes.ts) must send what ElectroDB sends: the same
 * item or update, the same key, the same condition, and leave the same item in the table. Each
 * case runs one chain through ElectroDB's entity and through the writer, for every entity and
 * every attribute it can write, and compares the requests (the names of the placeholders aside)
 * and the items each leaves in DynamoDB Local.
 *
 * The requests are sent to a table of this file's own: its records (orders without an order's
 * whole story, users with made-up emails) would otherwise meet the other files' scans and workers.
 * Only the answers of `go()` are read from the marketplace's table, on records nothing else reads.
 */
type Name = keyof typeof definitions;
const table = `direct-writes-${ulid().toLowerCase()}`;

beforeAll(async () => {
  await ensureTable(dynamo(), table, { stream: false });
});

afterAll(async () => {
  await dynamo().send(new DeleteTableCommand({ TableName: table }));
});

/** Sends a chain's request to this file's table. */
const sendToOwnTable = async (chain: Chain) => {
  const [[kind, params]] = Object.entries(chain.commit()) as [[string, Values]];
  const input = { ...params, TableName: table } as never;
  if (kind === 'Put') await dynamo().send(new PutCommand(input));
  else if (kind === 'Update') await dynamo().send(new UpdateCommand(input));
  else if (kind === 'Delete') await dynamo().send(new DeleteCommand(input));
  else throw new Error(`No ${kind} outside a transaction`);
};

type Values = Record<string, unknown>;
type Chain = {
  params: () => Values;
  commit: () => Values;
  go: (options?: Values) => Promise<{ data: unknown }>;
} & Record<string, (...args: never[]) => Chain>;
type Writer = Record<string, (input: Values) => Chain>;

interface AttributeSpec {
  type: unknown;
  required?: boolean;
  readOnly?: boolean;
  padding?: unknown;
}
interface IndexSpec {
  index?: string;
  pk: { field: string; composite: readonly string[] };
  sk: { field: string; composite: readonly string[] };
}

const names = () => Object.keys(definitions) as Name[];
const definitionOf = (name: Name) =>
  definitions[name] as unknown as {
    attributes: Record<string, AttributeSpec>;
    indexes: Record<string, IndexSpec>;
  };
const electro = (name: Name) => marketplace().entities[name] as unknown as Writer;
const direct = (name: Name) => writerOf(name) as unknown as Writer;

/** A value of the attribute's type, different per seed. */
const valueFor = (attribute: string, spec: AttributeSpec, seed: number): unknown => {
  const { type } = spec;
  if (Array.isArray(type)) return type[seed % type.length];
  switch (type) {
    case 'number':
      return 10 + seed;
    case 'boolean':
      return seed % 2 === 0;
    case 'list':
      return [`${attribute}-${seed}`];
    case 'set':
      return [`${attribute}-${seed}`, `more-${seed}`];
    case 'any':
      return { note: `${attribute}-${seed}` };
    default:
      return `${attribute.slice(0, 4).toUpperCase()}-${seed}.x`;
  }
};

const tableIndexOf = (name: Name) => Object.entries(definitionOf(name).indexes).find(([, index]) => !index.index)!;

/** A whole record: every attribute given (optional ones too, so every index is written). */
const fullRecord = (name: Name, seed: number) => {
  const record: Values = {};
  for (const [attribute, spec] of Object.entries(definitionOf(name).attributes)) {
    if (attribute === 'updatedAt') continue;
    record[attribute] = attribute === 'createdAt' ? '2026-01-02T03:04:05.006Z' : valueFor(attribute, spec, seed);
  }
  // A unique key, so runs and cases never meet in the table.
  const [, table] = tableIndexOf(name);
  for (const attribute of [...table.pk.composite, ...table.sk.composite]) {
    const spec = definitionOf(name).attributes[attribute]!;
    if (Array.isArray(spec.type)) continue;
    record[attribute] = spec.type === 'number' ? Math.floor(Math.random() * 1e9) : `${attribute}-${ulid()}`;
  }
  return record;
};

/** Only the required attributes (and the key), so optional indexes stay unwritten. */
const leanRecord = (name: Name, seed: number) => {
  const full = fullRecord(name, seed);
  const [, table] = tableIndexOf(name);
  const keyAttributes = new Set([...table.pk.composite, ...table.sk.composite]);
  return Object.fromEntries(
    Object.entries(full).filter(
      ([attribute]) => keyAttributes.has(attribute) || definitionOf(name).attributes[attribute]!.required,
    ),
  );
};

const keyOfRecord = (name: Name, record: Values) => {
  const [, table] = tableIndexOf(name);
  return Object.fromEntries([...table.pk.composite, ...table.sk.composite].map((a) => [a, record[a]]));
};

/** The composites of every index but the table's, from a record, for `composite()`. */
const compositesOf = (name: Name, record: Values) => {
  const out: Values = {};
  for (const [, index] of Object.entries(definitionOf(name).indexes)) {
    if (!index.index) continue;
    for (const attribute of [...index.pk.composite, ...index.sk.composite]) {
      if (record[attribute] !== undefined) out[attribute] = record[attribute];
    }
  }
  return out;
};

/**
 * A request with its placeholders replaced by the names and values they stand for, and the
 * clauses of each update action sorted: ElectroDB's and the writer's placeholders are named
 * differently, and may come in another order; what they say must not differ.
 */
const plain = (value: unknown): unknown => (value instanceof Set ? [...value].sort() : value);
const canonical = (params: Values) => {
  const names = (params.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (params.ExpressionAttributeValues ?? {}) as Values;
  const inline = (expression: string) =>
    expression.replace(/[#:]\w+/g, (token) =>
      token.startsWith('#') ? `#${names[token] ?? token}` : JSON.stringify(plain(values[token] ?? token)),
    );
  const { ExpressionAttributeNames: _names, ExpressionAttributeValues: _values, ...out } = params;
  if (params.ConditionExpression) out.ConditionExpression = inline(params.ConditionExpression as string);
  if (params.UpdateExpression) {
    const actions = (params.UpdateExpression as string).split(/ (?=SET |REMOVE |ADD |DELETE )/);
    out.UpdateExpression = actions
      .map((action) => {
        const [verb, ...rest] = action.split(' ');
        const clauses = inline(rest.join(' '))
          .split(/, (?![^(]*\))/)
          .sort();
        return `${verb} ${clauses.join(', ')}`;
      })
      .sort();
  }
  if (params.Item) {
    out.Item = Object.fromEntries(Object.entries(params.Item as Values).map(([k, v]) => [k, plain(v)]));
  }
  return out;
};

const rawItem = async (key: Values) =>
  (await dynamo().send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;

const outcome = async (chain: Chain) => {
  try {
    await sendToOwnTable(chain);
    return 'written';
  } catch (error) {
    return (error as Error).message.includes('conditional request failed') ? 'condition failed' : String(error);
  }
};

const clearOf = (item: Values | undefined) =>
  item && Object.fromEntries(Object.entries(item).map(([k, v]) => [k, v instanceof Set ? [...v].sort() : v]));

/**
 * One case: its request through both must be alike; then, from the same starting item (written
 * by ElectroDB) at two keys, each leaves the same item, or both fail the same condition.
 */
const expectAlike = async (
  name: Name,
  start: Values | null,
  build: (writer: Writer, record: Values | null) => Chain,
  label: string,
) => {
  expect(canonical(build(direct(name), start).params()), label).toEqual(
    canonical(build(electro(name), start).params()),
  );
  expect(Object.keys(build(direct(name), start).commit()), label).toEqual(
    Object.keys(build(electro(name), start).commit()),
  );
  if (!start) return;
  const twin = { ...start, ...keyOfRecord(name, fullRecord(name, 0)) };
  await sendToOwnTable(electro(name).put!(start));
  await sendToOwnTable(electro(name).put!(twin));
  const viaElectro = await outcome(build(electro(name), start));
  const viaDirect = await outcome(build(direct(name), twin));
  expect(viaDirect, label).toBe(viaElectro);
  const [electroKey, directKey] = [start, twin].map(
    (record) => electro(name).get!(keyOfRecord(name, record)).params().Key as Values,
  );
  const [a, b] = [await rawItem(electroKey!), await rawItem(directKey!)];
  // The two items differ by their key only: compare them with the key's values swapped in.
  const swapKey = (item: Values | undefined) => {
    if (!item) return item;
    const text = JSON.stringify(clearOf(item));
    let replaced = text;
    for (const attribute of Object.keys(keyOfRecord(name, start))) {
      replaced = replaced.split(String(twin[attribute]).toLowerCase()).join(String(start[attribute]).toLowerCase());
      replaced = replaced.split(String(twin[attribute])).join(String(start[attribute]));
    }
    return JSON.parse(replaced);
  };
  expect(swapKey(b), label).toEqual(clearOf(a));
};

describe('writes beside ElectroDB', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-04T05:06:07.089Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('puts and creates every entity as ElectroDB does, whole or with only what it requires', async () => {
    for (const name of names()) {
      for (const [label, record] of [
        ['full', fullRecord(name, 1)],
        ['lean', leanRecord(name, 2)],
      ] as const) {
        for (const op of ['put', 'create'] as const) {
          const where = `${name} ${op} ${label}`;
          // A record that gives part of an index's composites is refused by both.
          const [viaDirect, viaElectro] = [direct, electro].map((writer) => {
            try {
              return {
                params: canonical(writer(name)[op]!(record).params()),
                commit: JSON.stringify(writer(name)[op]!(record).commit()),
              };
            } catch (error) {
              return { refused: (error as Error).message.split(' - ')[0]!.split('. If')[0] };
            }
          });
          expect(viaDirect, where).toEqual(viaElectro);
        }
      }
    }
  });

  it('refuses what ElectroDB refuses on a put: a missing required attribute, a wrong type, a value not in an enum', () => {
    for (const name of names()) {
      const { attributes } = definitionOf(name);
      for (const [attribute, spec] of Object.entries(attributes)) {
        const record = fullRecord(name, 3);
        const cases: [string, unknown][] = [];
        if (spec.required && !('default' in spec)) cases.push(['missing', undefined]);
        if (spec.type === 'number') cases.push(['wrong type', 'seven']);
        if (spec.type === 'string') cases.push(['wrong type', 7]);
        if (Array.isArray(spec.type)) cases.push(['not in the enum', 'no-such-value']);
        for (const [what, value] of cases) {
          const input = { ...record, [attribute]: value };
          const where = `${name}.${attribute} ${what}`;
          expect(() => electro(name).put!(input).params(), where).toThrow();
          expect(() => direct(name).put!(input).params(), where).toThrow();
        }
      }
    }
  });

  it('patches and updates every attribute each entity can change, its index keys with it, and leaves the same item', async () => {
    // Every entity at once: their keys are their own.
    await Promise.all(
      names().map(async (name) => {
        const { attributes } = definitionOf(name);
        const start = fullRecord(name, 4);
        for (const [attribute, spec] of Object.entries(attributes)) {
          if (spec.readOnly || attribute === 'updatedAt') continue;
          const changed = valueFor(attribute, spec, 5);
          for (const op of ['patch', 'update'] as const) {
            await expectAlike(
              name,
              start,
              (w, record) =>
                w[op]!(keyOfRecord(name, record!)).set!({ [attribute]: changed } as never).composite!(
                  compositesOf(name, record!) as never,
                ),
              `${name} ${op} set ${attribute}`,
            );
          }
          if (!spec.required) {
            await expectAlike(
              name,
              start,
              (w, record) => w.patch!(keyOfRecord(name, record!)).remove!([attribute] as never),
              `${name} remove ${attribute}`,
            );
          }
          if (spec.type === 'number' && !spec.padding) {
            await expectAlike(
              name,
              start,
              (w, record) => w.update!(keyOfRecord(name, record!)).add!({ [attribute]: 3 } as never),
              `${name} add ${attribute}`,
            );
          }
        }
      }),
    );
  });

  it('joins conditions as ElectroDB joins them, OR and all, and both fail the same ones', async () => {
    const start = fullRecord('shareLink', 6);
    type Operations = Record<string, (...args: unknown[]) => string>;
    const conditions: [string, (a: Values, o: Operations) => string][] = [
      ['eq or eq', (a, o) => `${o.eq!(a.views, 10)} OR ${o.eq!(a.views, 16)}`],
      ['not exists or lt', (a, o) => `${o.notExists!(a.revokedAt)} OR ${o.lt!(a.revokedAt, 'A')}`],
      ['between', (a, o) => o.between!(a.views, 1, 100)],
      ['begins', (a, o) => o.begins!(a.orderId, 'ORDE')],
      ['ne and gte', (a, o) => `${o.ne!(a.views, 3)} AND ${o.gte!(a.downloads, 100)}`],
      ['name and value', (a, o) => `${o.name!(a.views)} > ${o.value!(a.views, 1)}`],
      ['contains', (a, o) => o.contains!(a.orderId, 'RDER')],
      ['exists', (a, o) => o.exists!(a.lastViewedAt)],
    ];
    for (const [label, condition] of conditions) {
      await expectAlike(
        'shareLink',
        start,
        (w, record) =>
          w.patch!(keyOfRecord('shareLink', record!)).set!({ lastViewedAt: 'now' } as never).where!(condition as never)
            .where!(((a: Values, o: Operations) => o.exists!(a.views)) as never),
        `where ${label}`,
      );
      // A transaction's condition check: the same request.
      const check = (writer: Writer) =>
        (
          writer.check!(keyOfRecord('shareLink', start)).where!(condition as never).commit() as {
            ConditionCheck: Values;
          }
        ).ConditionCheck;
      expect(canonical(check(direct('shareLink'))), `check ${label}`).toEqual(canonical(check(electro('shareLink'))));
      await expectAlike(
        'shareLink',
        start,
        (w, record) => w.delete!(keyOfRecord('shareLink', record!)).where!(condition as never),
        `delete where ${label}`,
      );
      await expectAlike(
        'shareLink',
        start,
        (w, record) => w.create!(record!).where!(condition as never),
        `create where ${label}`,
      );
    }
    // A patch and a remove of an item that is not there fail their condition; an update and a delete go through.
    const absent = fullRecord('shareLink', 7);
    for (const op of ['patch', 'update'] as const) {
      const viaDirect = await outcome(
        direct('shareLink')[op]!(keyOfRecord('shareLink', absent)).set!({ views: 1 } as never),
      );
      expect(viaDirect, op).toBe(op === 'patch' ? 'condition failed' : 'written');
    }
    expect(await outcome(direct('shareLink').remove!(keyOfRecord('shareLink', fullRecord('shareLink', 8))))).toBe(
      'condition failed',
    );
    expect(await outcome(direct('shareLink').delete!(keyOfRecord('shareLink', fullRecord('shareLink', 9))))).toBe(
      'written',
    );
  });

  it('writes the order as its claim and its release do: the pool keys removed, the editor keys written', async () => {
    const start = { ...fullRecord('order', 10), status: 'paid', poolPartition: 'open#3', pool: 'open' };
    const claim = (w: Writer, record: Values | null) =>
      w.patch!({ orderId: record!.orderId }).set!({
        status: 'in_progress',
        editorId: 'ED-1',
        editorName: 'Ed',
        assignment: 'assigned',
      } as never).remove!(['pool', 'poolPartition'] as never).composite!(compositesOf('order', record!) as never)
        .where!(((a: Values, o: Record<string, (...args: unknown[]) => string>) => o.eq!(a.status, 'paid')) as never);
    await expectAlike('order', start, claim, 'claim');
    await expectAlike('order', { ...start, status: 'in_progress' }, claim, 'claim of a claimed order');
  });

  it('upserts, adds to and deletes from a set, and answers with the new record as ElectroDB does', async () => {
    const rate = fullRecord('editorRate', 11);
    await expectAlike('editorRate', rate, (w, record) => w.upsert!({ ...record!, ratePerPhotoCents: 999 }), 'upsert');
    const jobType = fullRecord('jobType', 12);
    await expectAlike('jobType', jobType, (w, record) => w.upsert!({ ...record!, name: 'Renamed' }), 'job type upsert');
    const user = fullRecord('user', 13);
    await expectAlike(
      'user',
      user,
      (w, record) => w.update!(keyOfRecord('user', record!)).add!({ mutedEmails: ['x'] } as never),
      'set add',
    );
    await expectAlike(
      'user',
      user,
      (w, record) => w.update!(keyOfRecord('user', record!)).delete!({ mutedEmails: ['mutedEmails-13'] } as never),
      'set delete',
    );

    // The answers of go(), on the marketplace's table: marks of made-up messages, which nothing lists.
    const fresh = fullRecord('processedMessage', 14);
    await electro('processedMessage').put!(fresh).go();
    const key = keyOfRecord('processedMessage', fresh);
    const { data: viaDirect } = await direct('processedMessage').patch!(key).add!({ leaseUntil: 2 } as never).go({
      response: 'all_new',
    });
    const { data: viaElectro } = await electro('processedMessage').patch!(key).add!({ leaseUntil: 2 } as never).go({
      response: 'all_new',
    });
    expect(viaDirect).toEqual({
      ...(viaElectro as Values),
      leaseUntil: ((viaElectro as Values).leaseUntil as number) - 2,
    });
    const created = fullRecord('processedMessage', 15);
    expect((await direct('processedMessage').create!(created).go()).data).toEqual(
      (await electro('processedMessage').put!(created).go()).data,
    );
  });
});

import { tableName } from './client';
import { type EntityModel, indexKeyPart, recordOf } from './direct-reads';
import type { marketplace } from './entities';
import { definitions } from './entity-definitions';
import { documentRequests } from './table-requests';

/**
 * The writes, sent beside ElectroDB with the requests ElectroDB would send
 * (docs/decisions/0118-writes-beside-electrodb.md).
 *
 * ElectroDB builds an entity's model on its first use: the order's costs a cold write more than
 * the transaction it sends. These writers read the entity definitions ElectroDB is built from
 * (entity-definitions.ts) and offer the same chains the data layer writes with: `create`, `put`,
 * `patch`, `update`, `upsert`, `delete`, `remove` and `check`, then `set`, `add`, `subtract`, `append`,
 * `remove`, `delete`, `composite` and `where`, ending in `commit()` (a transaction's item),
 * `go()` or `params()`. They apply what ElectroDB applies: defaults, setters and the `watch: '*'`
 * timestamp, required attributes, types and enum values, read-only attributes, the keys of every
 * index an attribute written or removed belongs to, the entity's markers, and the conditions of
 * `create`, `patch` and `remove`, joined as ElectroDB joins them. `direct-writes.test.ts` holds
 * each one to ElectroDB's own `params()` and to the item ElectroDB leaves in the table.
 */

type Values = Record<string, unknown>;
type AttributeType = 'string' | 'number' | 'boolean' | 'list' | 'map' | 'set' | 'any' | readonly string[];

interface AttributeDefinition {
  type: AttributeType;
  required?: boolean;
  readOnly?: boolean;
  default?: unknown;
  set?: (value: unknown, item: Values) => unknown;
  watch?: '*' | readonly string[];
  padding?: { length: number; char: string };
  field?: string;
}

interface KeyDefinition {
  field: string;
  composite: readonly string[];
  template?: string;
}

interface Definition {
  model: { entity: string; version: string; service: string };
  attributes: Record<string, AttributeDefinition>;
  indexes: Record<string, { index?: string; collection?: string; pk: KeyDefinition; sk?: KeyDefinition }>;
}

type EntityName = keyof typeof definitions;
type KeyType = 'pk' | 'sk';

const markers = { entity: '__edb_e__', version: '__edb_v__' } as const;

/** What a writer needs of a definition, worked out once per entity. */
interface Shape {
  name: string;
  definition: Definition;
  model: EntityModel;
  tableIndex: string;
  table: { pk: string; sk: string };
  /** For each attribute, the index key parts it is a composite of. */
  partsOf: Map<string, { index: string; type: KeyType }[]>;
  watchers: string[];
}

const shapes = new Map<string, Shape>();

const shapeOf = (name: EntityName): Shape => {
  const known = shapes.get(name);
  if (known) return known;
  const definition = definitions[name] as unknown as Definition;
  for (const [attribute, spec] of Object.entries(definition.attributes)) {
    if (spec.field && spec.field !== attribute) throw new Error(`${name}.${attribute}: a field name is not supported`);
    if (spec.watch && spec.watch !== '*') throw new Error(`${name}.${attribute}: only watch '*' is supported`);
  }
  const padding: Record<string, { length: number; char: string }> = {};
  for (const [attribute, spec] of Object.entries(definition.attributes)) {
    if (spec.padding) padding[attribute] = spec.padding;
  }
  const indexes: EntityModel['indexes'] = {};
  const partsOf = new Map<string, { index: string; type: KeyType }[]>();
  let tableIndex = '';
  for (const [indexName, index] of Object.entries(definition.indexes)) {
    if (!index.sk) throw new Error(`${name}.${indexName}: an index without a sort key is not supported`);
    if (!index.index) tableIndex = indexName;
    indexes[indexName] = {
      ...(index.index ? { index: index.index } : {}),
      ...(index.collection ? { collection: index.collection } : {}),
      pk: index.pk,
      sk: index.sk,
    };
    for (const type of ['pk', 'sk'] as const) {
      for (const attribute of index[type]!.composite) {
        partsOf.set(attribute, [...(partsOf.get(attribute) ?? []), { index: indexName, type }]);
      }
    }
  }
  const tableKeys = definition.indexes[tableIndex]!;
  const shape: Shape = {
    name,
    definition,
    model: { entity: definition.model.entity, version: definition.model.version, indexes, padding },
    tableIndex,
    table: { pk: tableKeys.pk.field, sk: tableKeys.sk!.field },
    partsOf,
    watchers: Object.keys(definition.attributes).filter((a) => definition.attributes[a]!.watch === '*'),
  };
  shapes.set(name, shape);
  return shape;
};

const fieldOf = (shape: Shape, indexName: string, type: KeyType) => shape.definition.indexes[indexName]![type]!.field;

/** ElectroDB's message, so a caller (or a log) reads the same error from either. */
const invalid = (attribute: string, reason: string) =>
  new Error(`Invalid value type at entity path: "${attribute}". ${reason}`);

const incompleteComposites = (missing: string[], indexName: string) =>
  new Error(
    `Incomplete composite attributes: Without the composite attributes ${missing.map((m) => `"${m}"`).join(', ')} the following access patterns cannot be updated: "${indexName}". If a composite attribute is readOnly and cannot be set, use the 'composite' chain method on update to supply the value for key formatting purposes.`,
  );

/** Whether a value fits the attribute's type, as ElectroDB checks it on every write. */
const checkType = (attribute: string, spec: AttributeDefinition, value: unknown) => {
  if (value === undefined) return;
  const { type } = spec;
  if (Array.isArray(type)) {
    if (!type.includes(value as string)) {
      throw invalid(attribute, `Value not found in set of acceptable values: ${type.map((t) => `"${t}"`).join(', ')}`);
    }
    return;
  }
  const expected = type as string;
  const fits =
    expected === 'any' ||
    (expected === 'list' && Array.isArray(value)) ||
    (expected === 'set' && (Array.isArray(value) || value instanceof Set)) ||
    (expected === 'map' && typeof value === 'object' && value !== null && !Array.isArray(value)) ||
    typeof value === expected;
  if (!fits) throw invalid(attribute, `Received value of type "${typeof value}", expected value of type "${expected}"`);
};

/** A set attribute's array as the document client's Set, as ElectroDB's client writes it. */
const stored = (spec: AttributeDefinition | undefined, value: unknown) =>
  spec?.type === 'set' && Array.isArray(value) ? new Set(value) : value;

/**
 * ElectroDB's expression state: `#name` for each attribute, and a value placeholder numbered per
 * attribute (`:name0` in a condition, `:name_u0` in an update).
 */
class Expression {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly counts: Record<string, number> = {};
  constructor(private readonly suffix: string) {}

  name(attribute: string) {
    const prop = `#${attribute}`;
    this.names[prop] = attribute;
    return prop;
  }

  value(attribute: string, value: unknown) {
    const count = this.counts[attribute] ?? 0;
    this.counts[attribute] = count + 1;
    const placeholder = `:${attribute}${this.suffix}${count}`;
    this.values[placeholder] = value;
    return placeholder;
  }
}

/** ElectroDB's way of joining a condition to those before it (where.js `add`), kept as it is. */
class Condition extends Expression {
  expression = '';
  constructor() {
    super('');
  }

  add(next: string) {
    const trimmed = next.replace(/\n|\r/g, '').trim();
    if (!this.expression) {
      this.expression = trimmed;
      return;
    }
    if (!trimmed.replace(/\n|\r|\w/g, '').trim()) return;
    const existing =
      !this.expression.startsWith('(') && !this.expression.endsWith(')') ? `(${this.expression})` : this.expression;
    this.expression = `${existing} AND ${trimmed}`;
  }
}

const ATTRIBUTE = Symbol('attribute');
type AttributeRef = { [ATTRIBUTE]: string };

/** The attributes and operations a `where` callback is given, as ElectroDB gives them. */
const whereArguments = (shape: Shape, condition: Condition) => {
  const attributes = new Proxy({} as Record<string, AttributeRef>, {
    get: (_target, attribute) => {
      if (typeof attribute !== 'string' || !(attribute in shape.definition.attributes)) {
        throw new Error(`${shape.name}: no attribute ${String(attribute)} to compare`);
      }
      return { [ATTRIBUTE]: attribute };
    },
  });
  const name = (ref: AttributeRef) => condition.name(ref[ATTRIBUTE]);
  const value = (ref: AttributeRef, v: unknown) => condition.value(ref[ATTRIBUTE], v);
  const compare = (operator: string) => (ref: AttributeRef, v: unknown) => `${name(ref)} ${operator} ${value(ref, v)}`;
  const operations = {
    eq: compare('='),
    ne: compare('<>'),
    gt: compare('>'),
    gte: compare('>='),
    lt: compare('<'),
    lte: compare('<='),
    between: (ref: AttributeRef, low: unknown, high: unknown) =>
      `(${name(ref)} between ${value(ref, low)} and ${value(ref, high)})`,
    begins: (ref: AttributeRef, v: unknown) => `begins_with(${name(ref)}, ${value(ref, v)})`,
    exists: (ref: AttributeRef) => `attribute_exists(${name(ref)})`,
    notExists: (ref: AttributeRef) => `attribute_not_exists(${name(ref)})`,
    contains: (ref: AttributeRef, v: unknown) => `contains(${name(ref)}, ${value(ref, v)})`,
    notContains: (ref: AttributeRef, v: unknown) => `not contains(${name(ref)}, ${value(ref, v)})`,
    size: (ref: AttributeRef) => `size(${name(ref)})`,
    type: (ref: AttributeRef, v: unknown) => `attribute_type(${name(ref)}, ${value(ref, v)})`,
    name,
    value,
  };
  return [attributes, operations] as const;
};

type WhereCallback = (attributes: never, operations: never) => string;

/** The key composites of the table's index, from the values given (every one required). */
const keyComposites = (shape: Shape, values: Values) => {
  const index = shape.definition.indexes[shape.tableIndex]!;
  const composites: Values = {};
  for (const attribute of [...index.pk.composite, ...index.sk!.composite]) {
    if (values[attribute] === undefined) {
      throw new Error(`Incomplete or invalid key composite attributes supplied. Missing properties: "${attribute}"`);
    }
    composites[attribute] = values[attribute];
  }
  return composites;
};

const tableKey = (shape: Shape, composites: Values) => ({
  [shape.table.pk]: indexKeyPart(shape.model, shape.tableIndex, 'pk', composites as never),
  [shape.table.sk]: indexKeyPart(shape.model, shape.tableIndex, 'sk', composites as never),
});

const withExpressions = (params: Values, ...expressions: Expression[]) => {
  const names = Object.assign({}, ...expressions.map((e) => e.names));
  const values = Object.assign({}, ...expressions.map((e) => e.values));
  if (Object.keys(names).length) params.ExpressionAttributeNames = names;
  if (Object.keys(values).length) params.ExpressionAttributeValues = values;
  return params;
};

type Response = 'default' | 'none' | 'all_new' | 'all_old' | 'updated_new' | 'updated_old';
const returnValues: Record<Response, string | undefined> = {
  default: undefined,
  none: 'NONE',
  all_new: 'ALL_NEW',
  all_old: 'ALL_OLD',
  updated_new: 'UPDATED_NEW',
  updated_old: 'UPDATED_OLD',
};

/** The attributes ElectroDB returns for an answer's item: the record without keys and markers. */
const answered = (item: Values | undefined) => (item ? recordOf<Values>(item) : null);

// ---------------------------------------------------------------------------------------------
// put and create

/**
 * The keys of a whole record, as ElectroDB writes them: the table's, and those of every index one
 * of whose parts the record gives the composites of (a part given in part is refused). The other
 * part of such an index is written up to its first composite not given, label included
 * (`$marketplace#iseditor_`); an index none of whose composites is given is left out (sparse).
 */
const putKeys = (shape: Shape, item: Values) => {
  const keys: Values = {};
  for (const [indexName, index] of Object.entries(shape.definition.indexes)) {
    const given = (type: KeyType) => index[type]!.composite.filter((a) => item[a] !== undefined).length;
    for (const type of ['pk', 'sk'] as const) {
      const count = given(type);
      if (count > 0 && count < index[type]!.composite.length) {
        const missing = index[type]!.composite.filter((a) => item[a] === undefined);
        throw incompleteComposites(missing, indexName);
      }
    }
    const isTable = indexName === shape.tableIndex;
    if (!isTable && given('pk') === 0 && given('sk') === 0) continue;
    for (const type of ['pk', 'sk'] as const) {
      keys[index[type]!.field] = indexKeyPart(shape.model, indexName, type, item as never, !isTable);
    }
  }
  return keys;
};

const putItem = (shape: Shape, input: Values) => {
  const { attributes } = shape.definition;
  const item: Values = {};
  for (const [attribute, spec] of Object.entries(attributes)) {
    let value = input[attribute];
    if (value === undefined && spec.default !== undefined) {
      value = typeof spec.default === 'function' ? (spec.default as () => unknown)() : spec.default;
    }
    if (value !== undefined) item[attribute] = value;
  }
  // Checked as given (defaults applied), before the setters, as ElectroDB checks a new record.
  for (const [attribute, spec] of Object.entries(attributes)) {
    if (spec.required && item[attribute] === undefined) throw invalid(attribute, 'Value is required.');
    checkType(attribute, spec, item[attribute]);
  }
  for (const [attribute, spec] of Object.entries(attributes)) {
    if (spec.set && (item[attribute] !== undefined || spec.watch === '*')) {
      const value = spec.set(item[attribute], { ...item });
      if (value === undefined) delete item[attribute];
      else item[attribute] = value;
    }
  }
  const keys = putKeys(shape, item);
  const written: Values = {};
  for (const [attribute, value] of Object.entries(item)) written[attribute] = stored(attributes[attribute], value);
  return {
    record: item,
    Item: { ...written, ...keys, [markers.entity]: shape.model.entity, [markers.version]: shape.model.version },
  };
};

class PutChain {
  private readonly wheres: WhereCallback[] = [];
  constructor(
    private readonly shape: Shape,
    private readonly input: Values,
    private readonly create: boolean,
  ) {}

  where(callback: WhereCallback) {
    this.wheres.push(callback);
    return this;
  }

  private build() {
    const { Item, record } = putItem(this.shape, this.input);
    const condition = new Condition();
    if (this.create) {
      condition.add(`attribute_not_exists(${condition.name(this.shape.table.pk)})`);
      condition.add(`attribute_not_exists(${condition.name(this.shape.table.sk)})`);
    }
    for (const where of this.wheres) {
      const [attributes, operations] = whereArguments(this.shape, condition);
      condition.add(where(attributes as never, operations as never));
    }
    const params: Values = { Item, TableName: tableName() };
    if (condition.expression) params.ConditionExpression = condition.expression;
    return { params: withExpressions(params, condition), record };
  }

  params() {
    return this.build().params;
  }

  commit() {
    return { Put: this.build().params };
  }

  async go(options: { response?: Response } = {}) {
    const { params, record } = this.build();
    const ReturnValues = returnValues[options.response ?? 'default'];
    await documentRequests.putItem({ ...params, ...(ReturnValues ? { ReturnValues } : {}) });
    return { data: options.response === 'none' ? null : recordOf<Values>(record) };
  }
}

// ---------------------------------------------------------------------------------------------
// update and patch

type Operation =
  | { kind: 'set'; values: Values }
  | { kind: 'add' | 'subtract' | 'append' | 'delete'; values: Values }
  | { kind: 'remove'; attributes: readonly string[] };

/** An UpdateItem as a chain ends: its request, a transaction's item, or sent with ElectroDB's answer. */
abstract class UpdateItemChain {
  protected abstract build(): Values;

  params() {
    return this.build();
  }

  commit() {
    return { Update: this.build() };
  }

  async go(options: { response?: Response } = {}) {
    const ReturnValues = returnValues[options.response ?? 'default'];
    const answer = await documentRequests.updateItem({ ...this.build(), ...(ReturnValues ? { ReturnValues } : {}) });
    return { data: answered(answer.Attributes as Values | undefined) };
  }
}

class UpdateChain extends UpdateItemChain {
  private readonly operations: Operation[] = [];
  private readonly composites: Values = {};
  private readonly compositeOrder: string[] = [];
  private readonly wheres: WhereCallback[] = [];

  constructor(
    private readonly shape: Shape,
    private readonly key: Values,
    private readonly patch: boolean,
  ) {
    super();
  }

  private attribute(attribute: string) {
    const spec = this.shape.definition.attributes[attribute];
    if (!spec) throw new Error(`Attribute "${attribute}" does not exist on model.`);
    return spec;
  }

  set(values: Values) {
    for (const [attribute, value] of Object.entries(values)) {
      if (value === undefined) continue;
      const spec = this.attribute(attribute);
      if (spec.readOnly) throw new Error(`Attribute "${attribute}" is Read-Only and cannot be updated`);
      checkType(attribute, spec, value);
    }
    this.operations.push({ kind: 'set', values });
    return this;
  }

  private arithmetic(kind: 'add' | 'subtract' | 'append' | 'delete', values: Values) {
    for (const attribute of Object.keys(values)) {
      const spec = this.attribute(attribute);
      if (spec.readOnly) throw new Error(`Attribute "${attribute}" is Read-Only and cannot be updated`);
      if (this.shape.partsOf.has(attribute))
        throw new Error(`${this.shape.name}.${attribute}: ${kind} on a key composite`);
    }
    this.operations.push({ kind, values });
    return this;
  }

  add(values: Values) {
    return this.arithmetic('add', values);
  }

  subtract(values: Values) {
    return this.arithmetic('subtract', values);
  }

  append(values: Values) {
    return this.arithmetic('append', values);
  }

  delete(values: Values) {
    return this.arithmetic('delete', values);
  }

  remove(attributes: readonly string[]) {
    for (const attribute of attributes) {
      const spec = this.attribute(attribute);
      if (spec.readOnly) throw new Error(`Attribute "${attribute}" is Read-Only and cannot be removed`);
      if (spec.required) throw new Error(`Attribute "${attribute}" is Required and cannot be removed`);
    }
    this.operations.push({ kind: 'remove', attributes });
    return this;
  }

  composite(values: Values) {
    for (const [attribute, value] of Object.entries(values)) {
      if (!this.shape.partsOf.has(attribute) || value === undefined) continue;
      if (this.composites[attribute] !== undefined && this.composites[attribute] !== value) {
        throw new Error(
          `The composite attribute ${attribute} has been provided more than once with different values. Remove the duplication before running again`,
        );
      }
      if (this.composites[attribute] === undefined) this.compositeOrder.push(attribute);
      this.composites[attribute] = value;
    }
    return this;
  }

  where(callback: WhereCallback) {
    this.wheres.push(callback);
    return this;
  }

  protected build() {
    const shape = this.shape;
    const { attributes } = shape.definition;
    const composites = keyComposites(shape, this.key);
    const update = new Expression('_u');
    const set = new Map<string, string>();
    const others: Record<'ADD' | 'DELETE' | 'REMOVE', string[]> = { ADD: [], DELETE: [], REMOVE: [] };

    // The values set, after each attribute's setter; the key's own composites are not set twice.
    const written: Values = {};
    const removed: string[] = [];
    for (const operation of this.operations) {
      if (operation.kind === 'remove') {
        removed.push(...operation.attributes);
        continue;
      }
      for (const [attribute, value] of Object.entries(operation.values)) {
        if (value === undefined) continue;
        if (operation.kind === 'set') {
          if (attribute in composites) continue;
          written[attribute] = value;
          continue;
        }
        const spec = attributes[attribute]!;
        const name = update.name(attribute);
        const placeholder = update.value(attribute, stored(spec, value));
        if (operation.kind === 'add') {
          if (spec.type === 'set' || spec.type === 'any' || spec.type === 'number')
            others.ADD.push(`${name} ${placeholder}`);
          else throw new Error(`${shape.name}.${attribute}: ADD on a ${String(spec.type)}`);
        } else if (operation.kind === 'delete') {
          others.DELETE.push(`${name} ${placeholder}`);
        } else if (operation.kind === 'subtract') {
          const zero = update.value('default_value', 0);
          set.set(attribute, `${name} = (if_not_exists(${name}, ${zero}) - ${placeholder})`);
        } else {
          const empty = update.value('default_value', []);
          set.set(attribute, `${name} = list_append(if_not_exists(${name}, ${empty}), ${placeholder})`);
        }
      }
    }
    for (const [attribute, value] of Object.entries(written)) {
      const spec = attributes[attribute]!;
      written[attribute] = spec.set ? spec.set(value, { ...written }) : value;
    }
    // A `watch: '*'` attribute (updatedAt) is set by every update, as ElectroDB sets it.
    for (const watcher of shape.watchers) {
      if (written[watcher] === undefined) written[watcher] = attributes[watcher]!.set!(undefined, { ...written });
    }
    for (const [attribute, value] of Object.entries(written)) {
      if (value === undefined) continue;
      set.set(
        attribute,
        `${update.name(attribute)} = ${update.value(attribute, stored(attributes[attribute], value))}`,
      );
    }

    // Every index key part an attribute written belongs to is written again, from the values set,
    // the composites given and the key; one an attribute removed belongs to is removed.
    const known: Values = { ...this.composites, ...written, ...composites };
    const keyFields = new Set([shape.table.pk, shape.table.sk]);
    const impacted = new Map<string, Set<KeyType>>();
    for (const attribute of Object.keys(written)) {
      for (const { index, type } of shape.partsOf.get(attribute) ?? []) {
        impacted.set(index, (impacted.get(index) ?? new Set()).add(type));
      }
    }
    for (const [indexName, types] of impacted) {
      const index = shape.definition.indexes[indexName]!;
      const missing = [...types].flatMap((type) => index[type]!.composite.filter((a) => known[a] === undefined));
      if (missing.length) {
        throw incompleteComposites(missing, indexName);
      }
      // A sort key without composites is written with its partition key (ElectroDB's sparse-index rule).
      const parts = new Set(types);
      if (parts.has('pk') && !index.sk!.composite.length) parts.add('sk');
      for (const type of parts) {
        const field = fieldOf(shape, indexName, type);
        if (keyFields.has(field)) continue;
        set.set(
          field,
          `${update.name(field)} = ${update.value(field, indexKeyPart(shape.model, indexName, type, known as never))}`,
        );
      }
    }
    const removals: string[] = [];
    for (const attribute of removed) removals.push(update.name(attribute));
    for (const attribute of removed) {
      for (const { index, type } of shape.partsOf.get(attribute) ?? []) {
        const field = fieldOf(shape, index, type);
        if (!keyFields.has(field) && !set.has(field)) removals.push(update.name(field));
      }
    }
    others.REMOVE = [...new Set(removals)];
    for (const [attribute, value] of Object.entries(composites)) {
      if (!set.has(attribute)) set.set(attribute, `${update.name(attribute)} = ${update.value(attribute, value)}`);
    }
    set.set(markers.entity, `${update.name(markers.entity)} = ${update.value(markers.entity, shape.model.entity)}`);
    set.set(markers.version, `${update.name(markers.version)} = ${update.value(markers.version, shape.model.version)}`);

    const clauses = [`SET ${[...set.values()].join(', ')}`];
    for (const kind of ['REMOVE', 'ADD', 'DELETE'] as const) {
      if (others[kind].length) clauses.push(`${kind} ${others[kind].join(', ')}`);
    }

    const condition = new Condition();
    if (this.patch) {
      condition.add(`attribute_exists(${condition.name(shape.table.pk)})`);
      condition.add(`attribute_exists(${condition.name(shape.table.sk)})`);
    }
    for (const attribute of this.compositeOrder) {
      condition.add(`${condition.name(attribute)} = ${condition.value(attribute, this.composites[attribute])}`);
    }
    for (const where of this.wheres) {
      const [whereAttributes, operations] = whereArguments(shape, condition);
      condition.add(where(whereAttributes as never, operations as never));
    }
    const params: Values = {
      UpdateExpression: clauses.join(' '),
      TableName: tableName(),
      Key: tableKey(shape, composites),
    };
    if (condition.expression) params.ConditionExpression = condition.expression;
    return withExpressions(params, condition, update);
  }
}

// ---------------------------------------------------------------------------------------------
// upsert: one UpdateItem that writes the whole record, creating it or not

class UpsertChain extends UpdateItemChain {
  constructor(
    private readonly shape: Shape,
    private readonly input: Values,
  ) {
    super();
  }

  protected build() {
    const shape = this.shape;
    const { attributes } = shape.definition;
    const { record } = putItem(shape, this.input);
    const composites = keyComposites(shape, record);
    const update = new Expression('_u');
    const set: string[] = [];
    const assign = (attribute: string, value: unknown, onlyIfNew = false) => {
      const name = update.name(attribute);
      const placeholder = update.value(attribute, value);
      set.push(onlyIfNew ? `${name} = if_not_exists(${name}, ${placeholder})` : `${name} = ${placeholder}`);
    };
    assign(markers.entity, shape.model.entity);
    assign(markers.version, shape.model.version);
    const keyFields = new Set([shape.table.pk, shape.table.sk]);
    for (const [attribute, value] of Object.entries(record)) {
      const spec = attributes[attribute]!;
      // A read-only attribute outside every key keeps the value it was created with.
      assign(attribute, stored(spec, value), Boolean(spec.readOnly && !shape.partsOf.has(attribute)));
    }
    for (const [field, value] of Object.entries(putKeys(shape, record))) {
      if (!keyFields.has(field)) assign(field, value);
    }
    return withExpressions(
      { TableName: tableName(), UpdateExpression: `SET ${set.join(', ')}`, Key: tableKey(shape, composites) },
      update,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// delete and remove

/** A delete (no condition of its own), a remove (the item must exist) or a transaction's condition check. */
class KeyedChain {
  private readonly wheres: WhereCallback[] = [];
  constructor(
    private readonly shape: Shape,
    private readonly key: Values,
    private readonly kind: 'delete' | 'remove' | 'check',
  ) {}

  where(callback: WhereCallback) {
    this.wheres.push(callback);
    return this;
  }

  private build() {
    const shape = this.shape;
    const condition = new Condition();
    if (this.kind === 'remove') {
      condition.add(`attribute_exists(${condition.name(shape.table.pk)})`);
      condition.add(`attribute_exists(${condition.name(shape.table.sk)})`);
    }
    for (const where of this.wheres) {
      const [attributes, operations] = whereArguments(shape, condition);
      condition.add(where(attributes as never, operations as never));
    }
    const params: Values = { Key: tableKey(shape, keyComposites(shape, this.key)), TableName: tableName() };
    if (condition.expression) params.ConditionExpression = condition.expression;
    return withExpressions(params, condition);
  }

  params() {
    return this.build();
  }

  commit() {
    return this.kind === 'check' ? { ConditionCheck: this.build() } : { Delete: this.build() };
  }

  async go(options: { response?: Response } = {}) {
    if (this.kind === 'check') throw new Error('A condition check goes in a transaction (commitAll)');
    const ReturnValues = returnValues[options.response ?? 'default'];
    const answer = await documentRequests.deleteItem({ ...this.build(), ...(ReturnValues ? { ReturnValues } : {}) });
    return { data: answered(answer.Attributes as Values | undefined) };
  }
}

/** One entity's writes. */
export const writerOf = (name: EntityName) => {
  const shape = shapeOf(name);
  return {
    create: (item: Values) => new PutChain(shape, item, true),
    put: (item: Values) => new PutChain(shape, item, false),
    patch: (key: Values) => new UpdateChain(shape, key, true),
    update: (key: Values) => new UpdateChain(shape, key, false),
    upsert: (item: Values) => new UpsertChain(shape, item),
    delete: (key: Values) => new KeyedChain(shape, key, 'delete'),
    remove: (key: Values) => new KeyedChain(shape, key, 'remove'),
    check: (key: Values) => new KeyedChain(shape, key, 'check'),
  };
};

export type EntityWriter = ReturnType<typeof writerOf>;

type Entities = ReturnType<typeof marketplace>['entities'];
type WriteMethod = 'create' | 'put' | 'patch' | 'update' | 'upsert' | 'delete' | 'remove';
/** Each entity's writes, typed as ElectroDB types them, so a chain is checked as it was. */
export type Writers = { [Name in keyof Entities]: Pick<Entities[Name], WriteMethod> };
let facade: Writers | undefined;

/**
 * Every entity's writes. Only writes: a read goes through direct-reads.ts, or, for the few paged
 * reads not moved there, ElectroDB's own entity (`marketplace()`), so a function that only writes
 * and reads beside ElectroDB never reaches it.
 */
export const writers = (): Writers => {
  if (facade) return facade;
  const built = {} as Writers;
  for (const name of Object.keys(definitions) as EntityName[]) {
    let writer: EntityWriter | undefined;
    Object.defineProperty(built, name, {
      enumerable: true,
      get: () => {
        writer ??= writerOf(name);
        return writer;
      },
    });
  }
  facade = built;
  return facade;
};

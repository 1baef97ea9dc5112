import fc from 'fast-check';
import { type $ZodType, safeParse } from 'zod/v4/core';

/**
 * fast-check arbitraries read off zod schemas, for the hostile-input test. Only zod's core
 * definitions (`schema._zod.def`, `schema._zod.bag`) are read, so the same walk serves schemas built
 * with `zod` and with `zod/mini`.
 */
type Def = {
  type: string;
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  element?: $ZodType;
  innerType?: $ZodType;
  in?: $ZodType;
  out?: $ZodType;
  options?: readonly $ZodType[];
  items?: readonly $ZodType[];
  entries?: Record<string, string | number>;
  values?: readonly unknown[];
  keyType?: $ZodType;
  valueType?: $ZodType;
  left?: $ZodType;
  right?: $ZodType;
  getter?: () => $ZodType;
  coerce?: boolean;
  checks?: readonly { _zod: { def: { check: string; format?: string } } }[];
};
type Bag = {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
  patterns?: Set<RegExp>;
};

export const defOf = (schema: $ZodType) => schema._zod.def as unknown as Def;
const bagOf = (schema: $ZodType) => (schema._zod.bag ?? {}) as Bag;

export const accepts = (schema: $ZodType, value: unknown) => {
  try {
    return safeParse(schema, value).success;
  } catch {
    // A schema that throws instead of refusing is itself a finding; the server would answer 500.
    return false;
  }
};

const wrappers = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'readonly',
  'nonoptional',
  'catch',
  'success',
]);

/** The schema under optional/default/nullable/pipe wrappers: what a present value must satisfy. */
export const core = (schema: $ZodType): $ZodType => {
  const def = defOf(schema);
  if (wrappers.has(def.type) && def.innerType) return core(def.innerType);
  if (def.type === 'pipe' && def.in) return core(def.in);
  if (def.type === 'lazy' && def.getter) return core(def.getter());
  return schema;
};

/**
 * Valid strings carry the word "hostile" (an order id, a ULID-shaped one, included), so anything a
 * wrongly accepted request wrote can be told apart from other tests' writes.
 */
export const OUR_MARK = /hostile/i;
const stringCandidates = [
  'hostile-sample',
  '01JHOSTILE0000000000000000',
  // Crockford's alphabet has no I, L or O: a ULID cannot say it.
  '01JD5Z8Q4W2N6M3K7P9R1T5V8X',
  'hostile.input@example.test',
  'https://example.test/hostile.jpg',
  'A hostile sample, long enough for a message field.',
  'x',
];

/** A value the schema accepts, or undefined when none of our guesses fits (a custom regex, say). */
export const validSample = (schema: $ZodType): unknown => {
  const def = defOf(schema);
  const bag = bagOf(schema);
  const pick = (candidates: unknown[]) => candidates.find((candidate) => accepts(schema, candidate));
  switch (def.type) {
    case 'string': {
      const min = bag.minimum ?? 0;
      return pick([...stringCandidates, 'x'.repeat(Math.max(min, 1)), 'a'.repeat(Math.max(min, 16))]);
    }
    case 'number':
    case 'bigint': {
      const low = bag.minimum ?? (bag.exclusiveMinimum === undefined ? 1 : bag.exclusiveMinimum + 1);
      return pick([low, 1, 5, 100, bag.maximum ?? 0]);
    }
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'null':
      return null;
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const sample = validSample(field);
        if (sample !== undefined) value[key] = sample;
      }
      return value;
    }
    case 'array': {
      const element = validSample(def.element!);
      return Array.from({ length: Math.max(bag.minimum ?? 0, 1) }, () => element);
    }
    case 'tuple':
      return (def.items ?? []).map(validSample);
    case 'record':
      return {};
    case 'union':
      return def.options?.map(validSample).find((sample) => sample !== undefined);
    default:
      if (wrappers.has(def.type) && def.innerType) return validSample(def.innerType);
      if (def.type === 'pipe' && def.in) return validSample(def.in);
      if (def.type === 'lazy' && def.getter) return validSample(def.getter());
      return undefined;
  }
};

/** Pieces attackers and unlucky users send: bidi overrides, NUL, lone surrogates, emoji, path tricks. */
const nastyPieces = [
  '\u202E',
  '\u200F',
  '\u0000',
  '\uD800',
  '\uDFFF',
  '😀',
  '👩‍👩‍👧‍👦',
  '\uFEFF',
  '\u200B',
  'ﷺ',
  'Z̷̡̢͎a̴̛͖l̸g̵o',
  '%00',
  '%',
  '%E0%A4%A',
  '../',
  '..\\',
  '<script>alert(1)</script>',
  '$'.concat('{7*7}'),
  "'; DROP TABLE x; --",
  '\r\n',
  '\t',
  ' ',
  'null',
  '__proto__',
  'constructor',
  '{"$ne":null}',
  'ÿ',
  'ß',
  'İ',
];

const nastyText = fc
  .array(fc.oneof(fc.constantFrom(...nastyPieces), fc.string({ unit: 'binary', maxLength: 6 })), {
    minLength: 1,
    maxLength: 12,
  })
  .map((parts) => parts.join(''));

/** Huge strings: 100 KB to about 1 MB, of plain, multi-byte or hostile characters. */
const hugeText = fc
  .tuple(fc.integer({ min: 100_000, max: 1_000_000 }), fc.constantFrom('A', 'é', '😀', '\u202E', '\u0000', '"\\'))
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));

export const hostileString = (options: { huge?: boolean } = {}) =>
  fc.oneof(
    { weight: 10, arbitrary: nastyText },
    { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 200, maxLength: 3000 }) },
    ...(options.huge ? [{ weight: 1, arbitrary: hugeText }] : []),
  );

/** An object with the prototype-pollution keys as its own keys (a literal `__proto__` would set the prototype). */
export const withOwnKeys = (base: Record<string, unknown>, extra: [string, unknown][]) => {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of extra) {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
};

const pollution = fc.constantFrom<unknown>(
  { isAdmin: true, roles: ['admin'], status: 'paid' },
  { prototype: { polluted: 'yes' } },
  { toString: 'not a function' },
  null,
  'admin',
);
const pollutionKeys = fc.subarray(['__proto__', 'constructor', 'prototype'], { minLength: 1 });

/** Own `__proto__`, `constructor` and `prototype` keys added to an object. */
export const polluted = (base: fc.Arbitrary<Record<string, unknown>>) =>
  fc.tuple(base, pollutionKeys, pollution).map(([object, keys, value]) =>
    withOwnKeys(
      object,
      keys.map((key) => [key, value]),
    ),
  );

const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -0, 0.1),
    nastyText,
    fc.array(tie('value'), { maxLength: 4 }),
    polluted(fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 4 })),
  ),
})).value;

/** A value of the wrong JSON type for this schema most of the time. */
export const wrongType = anyJson;

/**
 * Values that break the schema: wrong types, out-of-range lengths and numbers, bad formats,
 * missing fields and extra ones (with the pollution keys at every level). Mostly invalid; the
 * test keeps only requests its schemas refuse.
 */
export const invalidFor = (schema: $ZodType, depth = 0): fc.Arbitrary<unknown> => {
  const def = defOf(schema);
  const bag = bagOf(schema);
  const huge = depth <= 1;
  switch (def.type) {
    case 'string': {
      const max = bag.maximum ?? 10_000;
      const min = bag.minimum ?? 0;
      const tooLong = fc
        .tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom('x', 'é', '😀', '\u0000'))
        .map(([extra, unit]) => unit.repeat(max + extra));
      const options: fc.WeightedArbitrary<unknown>[] = [
        { weight: 8, arbitrary: tooLong },
        { weight: 6, arbitrary: wrongType.filter((value) => typeof value !== 'string') },
      ];
      if (huge && max < 100_000) options.push({ weight: 1, arbitrary: hugeText });
      if (min > 0) options.push({ weight: 2, arbitrary: fc.constant('') });
      // Whitespace only: refused where the schema trims before counting.
      if (min > 0) options.push({ weight: 2, arbitrary: fc.constantFrom(' ', '\t\n', '\u00A0 ') });
      if (min > 1) options.push({ weight: 2, arbitrary: fc.string({ maxLength: min - 1 }) });
      return fc.oneof(...options);
    }
    case 'number':
    case 'bigint': {
      const low = bag.minimum ?? bag.exclusiveMinimum;
      const high = bag.maximum ?? bag.exclusiveMaximum;
      const options: fc.Arbitrary<unknown>[] = [
        wrongType,
        fc.constantFrom(1.5, -1, 0, 1e308, -1e308, 2 ** 53 + 2),
        fc.constantFrom('abc', '', ' ', '1e999', 'Infinity', 'NaN', '0x10', '1_000', '٣'),
      ];
      if (low !== undefined) options.push(fc.integer({ min: low - 1000, max: low - 1 }));
      if (high !== undefined) options.push(fc.integer({ min: high + 1, max: high + 1000 }));
      return fc.oneof(...options);
    }
    case 'boolean':
      return fc.oneof(fc.constantFrom('true', 'false', 1, 0, 'yes', null), wrongType);
    case 'enum':
    case 'literal': {
      const allowed = def.type === 'enum' ? Object.values(def.entries ?? {}) : [...(def.values ?? [])];
      const near = allowed.flatMap((value) => {
        const text = String(value);
        return [text.toUpperCase(), ` ${text}`, `${text}\u0000`, `${text}\u202E`, text.replace(/./, 'İ')];
      });
      return fc.oneof(fc.constantFrom(...near), hostileString(), wrongType);
    }
    case 'array': {
      const element = def.element!;
      const max = bag.maximum ?? 1000;
      const min = bag.minimum ?? 0;
      const sample = validSample(element);
      const options: fc.Arbitrary<unknown>[] = [
        wrongType,
        fc.array(invalidFor(element, depth + 1), { minLength: 1, maxLength: 4 }),
        fc
          .integer({ min: max + 1, max: max + (huge ? 20_000 : 50) })
          .map((n) => Array.from({ length: n }, () => sample ?? 0)),
      ];
      if (min > 0) options.push(fc.constant([]));
      return fc.oneof(...options);
    }
    case 'object': {
      const shape = def.shape ?? {};
      const keys = Object.keys(shape);
      const options: fc.Arbitrary<unknown>[] = [
        fc.oneof(fc.constant(null), fc.constant([]), fc.constant('{}'), fc.integer(), fc.constant(true)),
        objectNear(schema, depth, 'break'),
      ];
      if (keys.length) options.push(objectNear(schema, depth, 'drop'));
      return fc.oneof(...options);
    }
    case 'union':
    case 'record':
    case 'tuple':
    case 'intersection':
      return wrongType;
    default:
      if (def.type === 'nullable' || def.type === 'optional' || def.type === 'default' || def.type === 'prefault')
        return invalidFor(def.innerType!, depth).filter((value) => value !== null && value !== undefined);
      if (wrappers.has(def.type) && def.innerType) return invalidFor(def.innerType, depth);
      if (def.type === 'pipe' && def.in) return invalidFor(def.in, depth);
      if (def.type === 'lazy' && def.getter) return invalidFor(def.getter(), depth);
      return wrongType;
  }
};

/** A field's value: valid, hostile but well-typed, or broken; or the field left out. */
const fieldValue = (field: $ZodType, depth: number) => {
  const sample = validSample(field);
  const present = core(field);
  const options: fc.WeightedArbitrary<unknown>[] = [
    { weight: 3, arbitrary: fc.constant(sample) },
    { weight: 2, arbitrary: invalidFor(field, depth + 1) },
  ];
  if (defOf(present).type === 'string') options.push({ weight: 2, arbitrary: hostileString({ huge: depth === 0 }) });
  return fc.oneof(...options);
};

/**
 * An object around the schema's shape. 'break': each field valid, hostile or broken, with extra and
 * pollution keys; 'drop': a valid sample missing some of its fields.
 */
export const objectNear = (schema: $ZodType, depth = 0, mode: 'break' | 'drop' = 'break'): fc.Arbitrary<unknown> => {
  const { type, options } = defOf(core(schema));
  // A body of several forms (one item, or a batch of them): near each form.
  if (type === 'union' && options?.length) return fc.oneof(...options.map((option) => objectNear(option, depth, mode)));
  const shape = defOf(core(schema)).shape ?? {};
  const keys = Object.keys(shape);
  if (mode === 'drop') {
    if (!keys.length) return fc.constant({});
    const sample = (validSample(schema) ?? {}) as Record<string, unknown>;
    return fc.subarray(keys, { minLength: 1 }).map((dropped) => {
      const copy = { ...sample };
      for (const key of dropped) delete copy[key];
      return copy as unknown;
    });
  }
  // One field is always broken; the others valid, hostile, broken or left out.
  const fields: fc.Arbitrary<Record<string, unknown>> = keys.length
    ? fc
        .constantFrom(...keys)
        .chain((broken) =>
          fc.record(
            Object.fromEntries(
              keys.map((key) => [
                key,
                key === broken ? invalidFor(shape[key]!, depth + 1) : fieldValue(shape[key]!, depth),
              ]),
            ),
            { requiredKeys: [broken] },
          ),
        )
    : fc.constant({});
  const extras = fc.dictionary(
    fc.oneof(
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'isAdmin', 'role', 'status', 'userId'),
      nastyText,
    ),
    depth < 2 ? anyJson : fc.constant('x'),
    { maxKeys: 3 },
  );
  return fc.tuple(fields, extras, fc.boolean(), fc.boolean()).chain(([base, extra, addExtras, addPollution]) => {
    const withExtras = addExtras ? withOwnKeys(base, Object.entries(extra)) : base;
    return addPollution ? polluted(fc.constant(withExtras)) : fc.constant(withExtras);
  }) as fc.Arbitrary<unknown>;
};

// Values for a JSON Schema (fast-check): mostly valid, often at or just past a limit, and sometimes
// hostile (NUL, lone surrogates, CR/LF, wrong types, huge numbers). The request generator of
// openapi-arbitraries.ts draws bodies and query values from them.
import fc from 'fast-check';

export type JsonSchema = Record<string, unknown>;

const anyChar16 = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** Strings that have broken services before. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '\r\n',
  'x\r\nBcc: victim@example.com',
  "'; DROP TABLE teams; --",
  '%00',
  '%',
  '../../etc/passwd',
  '😀',
  '\uFEFF',
  '\u202E',
  '-1',
  '0',
  '1e309',
  'NaN',
  'null',
  '[]',
  '{}',
  '9'.repeat(40),
  '2026-02-30T00:00:00Z',
  '0000-00-00T00:00:00Z',
  '<script>alert(1)</script>',
  '{{x}}',
  `hk_${'a'.repeat(43)}`,
  'a@b',
  ' Name <a@example.com> ',
  '\\',
  '"',
  'a'.repeat(10_001),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: anyChar16, maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 24 }),
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, [], {}),
  fc.jsonValue({ maxDepth: 2 }),
);

export interface GeneratorContext {
  /** Known-good strings (ids of real resources, addresses on a verified domain) mixed into strings. */
  goodStrings: readonly string[];
  /** Likely values by property name (`from`, `templateId`, ...), so some requests get deep. */
  byName?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /** Clean requests have no hostile values and no values past a limit; the others have some. */
  clean?: boolean;
}

function intBounds(schema: JsonSchema): { min: number; max: number } {
  let min = typeof schema.minimum === 'number' ? schema.minimum : -1_000_000;
  if (typeof schema.exclusiveMinimum === 'number') min = schema.exclusiveMinimum + 1;
  let max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
  if (typeof schema.exclusiveMaximum === 'number') max = schema.exclusiveMaximum - 1;
  return { min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) };
}

function stringArbitrary(schema: JsonSchema, context: GeneratorContext): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 64;
  const choices: fc.Arbitrary<string>[] = [
    fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, 32)) }),
  ];
  if (schema.format === 'date-time') {
    choices.push(
      fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
    );
  }
  if (schema.format === 'email') choices.push(fc.constantFrom('a@example.com', 'A.B+c@Example.COM'));
  if (schema.format === 'uri' || schema.format === 'url') {
    choices.push(fc.constantFrom('https://example.com/hook', 'https://localhost/x', 'http://10.0.0.1/', 'ftp://x'));
  }
  if (typeof schema.pattern === 'string' && schema.pattern.length < 200) {
    try {
      choices.push(fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= maxLength));
    } catch {
      // A pattern fast-check cannot generate from: the other choices stand.
    }
  }
  // The limits themselves: exactly at the maximum, and one past it (bounded, to keep runs fast).
  if (maxLength <= 20_000) {
    choices.push(context.clean ? fc.constant('x'.repeat(maxLength)) : fc.constantFrom('x'.repeat(maxLength + 1)));
  }
  if (context.goodStrings.length > 0) choices.push(fc.constantFrom(...context.goodStrings));
  return fc.oneof(...choices);
}

/** Values for a JSON Schema: valid most of the time, hostile some of the time. */
export function valueFor(
  schema: JsonSchema | undefined,
  context: GeneratorContext,
  depth = 0,
  name?: string,
): fc.Arbitrary<unknown> {
  const valid = validValueFor(schema ?? {}, context, depth);
  const hinted = name === undefined ? undefined : context.byName?.[name];
  const likely = hinted ? fc.oneof({ weight: 3, arbitrary: hinted }, { weight: 1, arbitrary: valid }) : valid;
  if (context.clean) return likely;
  return fc.oneof({ weight: 6, arbitrary: likely }, { weight: 1, arbitrary: hostileValue });
}

function validValueFor(schema: JsonSchema, context: GeneratorContext, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) {
      return fc.oneof(...branches.map((branch) => validValueFor(branch as JsonSchema, context, depth)));
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return validValueFor(Object.assign({}, ...(schema.allOf as JsonSchema[])), context, depth);
  }
  const type = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (type.length > 1) return fc.oneof(...type.map((t) => validValueFor({ ...schema, type: t }, context, depth)));
  switch (type[0]) {
    case 'string':
      return stringArbitrary(schema, context);
    case 'integer': {
      const { min, max } = intBounds(schema);
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max, min - 1, max + 1));
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : 4;
      return fc.array(valueFor(schema.items as JsonSchema, context, depth + 1), {
        minLength: Math.min(minItems, 4),
        maxLength: Math.max(Math.min(maxItems, 4), Math.min(minItems, 4)),
      });
    }
    case 'object':
      return objectArbitrary(schema, context, depth);
    default:
      if (schema.properties) return objectArbitrary(schema, context, depth);
      return hostileValue;
  }
}

function objectArbitrary(schema: JsonSchema, context: GeneratorContext, depth: number): fc.Arbitrary<unknown> {
  if (depth > 4) return fc.constant({});
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties))
    fields[name] = valueFor(property, context, depth + 1, name);
  // Clean requests send few optional fields (many are exclusive: html or content), others any.
  const omitted = Symbol('omitted');
  const optionalFields = Object.fromEntries(
    Object.entries(fields)
      .filter(([name]) => !required.has(name))
      .map(([name, field]) => [
        name,
        context.clean
          ? fc.oneof(
              { weight: context.byName?.[name] ? 1 : 3, arbitrary: fc.constant(omitted) },
              { weight: context.byName?.[name] ? 2 : 1, arbitrary: field },
            )
          : fc.oneof(fc.constant(omitted), field),
      ]),
  );
  const record = fc
    .record({ ...optionalFields, ...Object.fromEntries([...required].map((name) => [name, fields[name]!])) })
    .map((value) => Object.fromEntries(Object.entries(value).filter(([, field]) => field !== omitted)));
  // Required fields are left out now and then (requiredKeys: [] makes every key optional).
  const withRequired = context.clean
    ? record
    : fc.oneof({ weight: 5, arbitrary: record }, { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) });
  const additional = schema.additionalProperties;
  if (additional && typeof additional === 'object') {
    const keys = stringArbitrary((schema.propertyNames ?? { type: 'string', maxLength: 20 }) as JsonSchema, context);
    const extra = fc.dictionary(
      context.clean ? keys : fc.oneof(keys, hostileString),
      valueFor(additional as JsonSchema, context, depth + 1),
      {
        maxKeys: 4,
      },
    );
    return fc.tuple(withRequired, extra).map(([known, more]) => ({ ...more, ...(known as object) }));
  }
  return withRequired;
}

/**
 * Generated request values for the route fuzz tests (issue 34): hostile strings, wrong types, and
 * values a route's own JSON Schema accepts (so a request gets past validation and reaches the
 * handler, the database and the renderers), each with or without a hostile character put in.
 */
import fc from 'fast-check';

type JsonSchema = Record<string, unknown>;

/**
 * Characters and words that broke this server before (NUL, lone surrogates, noncharacters: issue 34)
 * or that a parser, a path or a query may read as syntax.
 */
const NASTY = [
  '\u0000',
  '\uD800',
  '\uDFFF',
  '\uFFFE',
  '\uFFFF',
  '\u202E',
  '\u2066',
  '\u200F',
  '\u0085',
  '\uFEFF',
  '\u200D',
  '\r\n',
  '%',
  '%00',
  '..',
  '../',
  '/',
  '\\',
  '?',
  '#',
  '&',
  '=',
  '"',
  "'",
  '<script>',
  ' ',
  '{}',
  '[]',
  'null',
  '-1',
  '0',
  '1e309',
  '__proto__',
  'constructor',
  "' OR 1=1 --",
] as const;

/** Any UTF-16 code unit: fast-check's own units never produce a lone surrogate. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));

/** Strings a client should never send, and some it might. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30 }),
  // Every code point: NUL, C1 controls, U+FFFE/U+FFFF and the other planes' noncharacters.
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: codeUnit, maxLength: 30 }),
  fc.string({ unit: fc.constantFrom(...NASTY), minLength: 1, maxLength: 6 }),
  // Longer than any field allows, and longer than a path parameter may be.
  fc.constantFrom('a'.repeat(5_000), '\u0000'.repeat(300), 'é'.repeat(2_049), '9'.repeat(400)),
);

/** A value of the wrong type for any field. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER + 2, [], {}),
  fc.jsonValue({ maxDepth: 2 }),
);

/** `text` with `nasty` put in at a generated place. */
const withNasty = (text: fc.Arbitrary<string>) =>
  fc.tuple(text, fc.constantFrom(...NASTY), fc.nat()).map(([value, nasty, at]) => {
    const index = value.length === 0 ? 0 : at % (value.length + 1);
    return value.slice(0, index) + nasty + value.slice(index);
  });

/** A string the schema accepts, as far as its keywords say. */
function plausibleString(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid();
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // A pattern fast-check cannot generate from: hostile strings stand in.
    }
  }
  const maxLength = typeof schema.maxLength === 'number' ? Math.min(schema.maxLength, 80) : 80;
  const minLength = typeof schema.minLength === 'number' ? Math.min(schema.minLength, maxLength) : 0;
  return fc.string({ minLength, maxLength });
}

/** A value the schema accepts, as far as its keywords say (enums, formats, patterns, types). */
export function plausible(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (choices) return fc.oneof(...choices.map(plausible));
  switch (schema.type) {
    case 'string':
      return plausibleString(schema);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.maxSafeInteger());
    case 'number':
      return fc.double({ noNaN: true });
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = (schema.items ?? {}) as JsonSchema;
      return fc.array(fieldValue(items), { minLength: 1, maxLength: 4 });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** What one field gets: a plausible value, one with a hostile character in, a hostile string, a wrong type. */
export function fieldValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const valid = plausible(schema);
  const text = schema.type === 'string' ? (valid as fc.Arbitrary<string>) : plausibleString({});
  return fc.oneof(valid, withNasty(text), hostileString, wrongType);
}

/** A string for a path or query parameter: plausible, hostile, or plausible with a hostile character. */
export function parameterValue(schema: JsonSchema): fc.Arbitrary<string> {
  const valid = plausible(schema).map((value) => (typeof value === 'string' ? value : String(value)));
  // Mostly valid: a route with several parameters refuses at the first bad one.
  return fc.oneof({ arbitrary: valid, weight: 3 }, withNasty(valid), hostileString);
}

/** Values by field name that pass checks a JSON Schema cannot say (a Threads link, a username). */
export type Examples = Readonly<Record<string, fc.Arbitrary<unknown>>>;

/**
 * A JSON body for an object schema. Mostly every field valid but one, which gets any generated
 * value: a body with several bad fields is refused at its first, and the others would never reach
 * the handler. Else any field present or not with any value, a field the schema does not name, or
 * no object at all.
 */
export function jsonBody(schema: JsonSchema, examples: Examples = {}): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  const valid = fc.record(
    Object.fromEntries(names.map((name) => [name, examples[name] ?? plausible(properties[name] ?? {})])),
  );
  const anyField = fc.record(
    Object.fromEntries(names.map((name) => [name, fieldValue(properties[name] ?? {})])),
    { requiredKeys: [] },
  );
  const oneBad =
    names.length === 0
      ? valid
      : fc
          .constantFrom(...names)
          .chain((name) =>
            fc
              .tuple(valid, fieldValue(properties[name] ?? {}))
              .map(([body, value]) => ({ ...body, [name]: value })),
          );
  const extra = fc
    .tuple(valid, hostileString, wrongType)
    .map(([body, key, value]) => ({ ...body, [key]: value }));
  return fc.oneof(
    { arbitrary: valid, weight: 2 },
    { arbitrary: oneBad, weight: 5 },
    { arbitrary: anyField, weight: 1 },
    { arbitrary: extra, weight: 1 },
    { arbitrary: wrongType, weight: 1 },
  );
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * Percent-encodes every byte of `text` but the unreserved ones, as a client that sends anything
 * would: a lone surrogate goes as its three WTF-8 bytes (encodeURIComponent would throw).
 */
export function percentEncode(text: string): string {
  let encoded = '';
  for (const char of text) {
    if (UNRESERVED.test(char)) {
      encoded += char;
      continue;
    }
    const point = char.codePointAt(0) ?? 0;
    const bytes =
      point >= 0xd800 && point <= 0xdfff
        ? [0xe0 | (point >> 12), 0x80 | ((point >> 6) & 0x3f), 0x80 | (point & 0x3f)]
        : [...Buffer.from(char, 'utf8')];
    encoded += bytes.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return encoded;
}

/**
 * A URL part as sent: every byte percent-encoded, or with `%` left as typed (a malformed escape,
 * which the server must read as naming nothing rather than fail on).
 */
export function encoded(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(text, fc.boolean())
    .map(([value, raw]) => (raw ? percentEncode(value).replaceAll('%25', '%') : percentEncode(value)));
}

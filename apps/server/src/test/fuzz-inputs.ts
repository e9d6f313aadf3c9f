import type { JsonSchema } from './route-world.js';

/**
 * Bad inputs for the route fuzz test (route-fuzz.test.ts), drawn by a seeded generator so a
 * failure reproduces: the seed is printed with every failure.
 */

/** mulberry32: a small, fast, seeded PRNG (enough for picking test inputs). */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    /** `count` distinct items (all when there are fewer). */
    sample: <T>(items: readonly T[], count: number): T[] => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
      }
      return copy.slice(0, count);
    },
  };
}
export type Random = ReturnType<typeof seededRandom>;

export const BAD_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uDBFF',
  'x'.repeat(70_000),
  '',
  ' ',
  "'; DROP TABLE users; --",
  '\\',
  '%',
  '_',
  '\u202E\u0007\u001B[31m',
  '\uFFFF\uFFFE',
  '😀',
  '[10.0.0.0/8,\u0000]',
  '2147483648',
  '-1',
];

export const BAD_NUMBERS: readonly number[] = [
  2 ** 31,
  2 ** 31 + 1,
  2 ** 32,
  2 ** 53,
  2 ** 63,
  -1,
  -(2 ** 31) - 1,
  0,
  1.5,
  1e308,
  -1e308,
];

export const WRONG_TYPES: readonly unknown[] = [
  null,
  true,
  {},
  [],
  [null],
  { nested: { deeper: [{}] } },
  '1',
];

/** Any bad value for a field, whatever its type. */
export const BAD_VALUES: readonly unknown[] = [...BAD_STRINGS, ...BAD_NUMBERS, ...WRONG_TYPES];

/** Whole JSON bodies that are not what any route takes. */
export const BAD_JSON_TEXTS: readonly string[] = [
  '',
  '{',
  '{"a":',
  '[',
  'null',
  '"text"',
  '123',
  'true',
  '[]',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
  '{"x": 1e999}',
  '{"name":"a","name":"\\u0000"}',
  '\uFEFF{}',
  '{"name":"\\ud800"}',
  '{"name":"\\u0000"}',
];

/** Values for a path `{id}`. */
export const BAD_IDS: readonly string[] = [
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740993',
  '99999999999999999999999',
  '1e3',
  '1e400',
  '0x10',
  '1.5',
  '%201',
  'abc',
  '%00',
  '1%00',
  '%ED%A0%80',
  '%FF',
  'a'.repeat(5000),
  'null',
];

/** Values for a query parameter, already URL-encoded. */
export const BAD_QUERY_VALUES: readonly string[] = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%FF%FE',
  '2147483648',
  '9007199254740993',
  '-1',
  '1e400',
  '-0',
  'NaN',
  'abc',
  '',
  'a'.repeat(10_000),
  'true,false,true',
  '__proto__',
  "'%3B%20DROP%20TABLE%20users%3B--",
];

/** Odd list queries: sort and filter injections, repeated and nested parameters. */
export const ODD_LIST_QUERIES: readonly string[] = [
  'sortBy=__proto__',
  'sortBy=constructor',
  'sortBy=name%3B%20DROP%20TABLE%20users',
  'sortBy=id%20desc',
  `sortBy=${'name,'.repeat(500)}name`,
  'sortBy=name&sortDesc=maybe',
  'sortBy=name,name&sortDesc=true,false,true,false',
  'filter=name:%00',
  'filter=%00',
  'filter=%ED%A0%80',
  'filter=:',
  'filter=name:',
  'filter=%25',
  'filter=_',
  'filter=%5C',
  "filter=name:'",
  'filter=a:b:c',
  `filter=${'x,'.repeat(499)}x`,
  'limit=1&limit=2',
  'limit[]=1',
  'limit[a]=1',
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  'offset=2147483648',
  'offset=9007199254740991',
  'limit=2147483648',
];

/** A value of the schema's type, valid where it can be guessed. */
export function sampleOf(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return 'x';
  const extra = schema as JsonSchema & {
    enum?: unknown[];
    default?: unknown;
    minimum?: number;
    format?: string;
    minItems?: number;
  };
  if (extra.enum && extra.enum.length > 0) return extra.enum[0];
  if (schema.anyOf && schema.anyOf.length > 0) return sampleOf(schema.anyOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type ?? '') {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {}))
        value[key] = sampleOf(property, depth + 1);
      if (typeof schema.additionalProperties === 'object' && !schema.properties)
        value['FUZZ'] = sampleOf(schema.additionalProperties, depth + 1);
      return value;
    }
    case 'array':
      return [sampleOf(schema.items, depth + 1)];
    case 'integer':
    case 'number':
      return Math.max(1, extra.minimum ?? 1);
    case 'boolean':
      return false;
    case 'string':
      if (extra.format === 'email') return 'fuzz@example.com';
      if (extra.format === 'date-time') return new Date().toISOString();
      return typeof extra.default === 'string' && extra.default !== '' ? extra.default : 'fuzz';
    default:
      return extra.default ?? 'x';
  }
}

export type Path = (string | number)[];

/** Every path to a value inside `value` (objects and arrays included). */
export function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value))
    return [prefix, ...value.flatMap((item, index) => pathsOf(item, [...prefix, index]))];
  if (typeof value === 'object' && value !== null)
    return [
      prefix,
      ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...prefix, key])),
    ];
  return [prefix];
}

/** A deep copy of `value` with the value at `path` replaced (or removed, for `undefined`). */
export function withValue(value: unknown, path: Path, replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  if (path.length === 0) return replacement;
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (replacement === undefined) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

/** A multipart/form-data body, written by hand so that it can be wrong. */
export function rawMultipart(
  parts: { filename: string | Buffer; content: string | Buffer }[],
  boundary = 'fuzzboundary',
): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="`),
      Buffer.isBuffer(part.filename) ? part.filename : Buffer.from(part.filename),
      Buffer.from('"\r\nContent-Type: application/octet-stream\r\n\r\n'),
      Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

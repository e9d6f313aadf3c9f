import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BAD_IDS,
  BAD_JSON_TEXTS,
  BAD_QUERY_VALUES,
  BAD_STRINGS,
  BAD_VALUES,
  ODD_LIST_QUERIES,
  pathsOf,
  rawMultipart,
  sampleOf,
  seededRandom,
  withValue,
  type Random,
} from './fuzz-inputs.js';
import { ROUTE_TABLE, type Expectation, type RequestBody } from './route-table.js';
import {
  buildWorld,
  concretePath,
  kindOf,
  operations,
  RULE_TEXT,
  type Operation,
  type World,
} from './route-world.js';

/** FUZZ_SEED=<n> replays a run; every failure names the seed it came from. */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_114);
/** A request that takes longer than this has hung. */
const REQUEST_TIMEOUT_MS = 10_000;
const BODY_MUTATIONS_PER_OPERATION = 60;

const DATES = [
  '2026-13-45T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '%2B275760-09-13T00:00:00Z',
  '-271821-04-20T00:00:00Z',
  '2026-01-01T00:00:00%2B99:99',
  '99999999999999999999:1',
  '0:0',
  '1:-1',
];

interface FuzzRequest {
  what: string;
  options: InjectOptions;
}

type Inject = Omit<InjectOptions, 'url'> & { url: string };

function pathRequests(op: Operation, base: Inject, random: Random): FuzzRequest[] {
  if (op.pathParams.length === 0) return [];
  return random.sample(BAD_IDS, 10).map((id) => ({
    what: `path ${id.slice(0, 40)}`,
    options: { ...base, url: op.path.replace(/\{\w+\}/, id) },
  }));
}

function queryRequests(op: Operation, base: Inject, random: Random): FuzzRequest[] {
  const requests: FuzzRequest[] = [];
  const url = base.url;
  for (const param of op.query) {
    const values = [...random.sample(BAD_QUERY_VALUES, 4), ...random.sample(DATES, 2)];
    for (const value of values)
      requests.push({
        what: `query ${param}=${value.slice(0, 40)}`,
        options: { ...base, url: `${url}?${param}=${value}` },
      });
  }
  if (op.query.includes('sortBy') || op.query.includes('limit'))
    for (const query of random.sample(ODD_LIST_QUERIES, 14))
      requests.push({
        what: `query ${query.slice(0, 60)}`,
        options: { ...base, url: `${url}?${query}` },
      });
  return requests;
}

function bodyRequests(
  op: Operation,
  base: Inject,
  body: RequestBody | undefined,
  random: Random,
): FuzzRequest[] {
  if (!op.bodySchema || !body || typeof body.payload !== 'object' || Buffer.isBuffer(body.payload))
    return [];
  const valid = body.payload;
  const full = { ...(sampleOf(op.bodySchema) as object), ...valid };
  const mutations: FuzzRequest[] = [];
  for (const [name, target] of [
    ['valid', valid],
    ['full', full],
  ] as const) {
    for (const path of pathsOf(target).filter((p) => p.length > 0)) {
      for (const value of [...random.sample(BAD_VALUES, 3), undefined])
        mutations.push({
          what: `body(${name}) ${path.join('.')}=${JSON.stringify(value)?.slice(0, 40)}`,
          options: { ...base, payload: withValue(target, path, value) as object },
        });
    }
    for (const path of pathsOf(target).filter((p) => {
      const at = p.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], target);
      return typeof at === 'object' && at !== null && !Array.isArray(at);
    })) {
      const key = random.pick(BAD_STRINGS);
      const at = path.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], target);
      mutations.push({
        what: `body(${name}) key ${JSON.stringify(key).slice(0, 40)} in ${path.join('.')}`,
        options: {
          ...base,
          payload: withValue(target, path, { ...(at as object), [key]: 'x' }) as object,
        },
      });
    }
  }
  const texts = random.sample(BAD_JSON_TEXTS, 10).map((text) => ({
    what: `raw body ${JSON.stringify(text.slice(0, 30))}`,
    options: {
      ...base,
      headers: { ...base.headers, 'content-type': 'application/json' },
      payload: text,
    },
  }));
  const odd: FuzzRequest[] = [
    {
      what: 'text/plain body',
      options: {
        ...base,
        headers: { ...base.headers, 'content-type': 'text/plain' },
        payload: 'hello',
      },
    },
    {
      what: 'invalid UTF-8 in a JSON string',
      options: {
        ...base,
        headers: { ...base.headers, 'content-type': 'application/json' },
        payload: Buffer.concat([
          Buffer.from('{"name":"a'),
          Buffer.from([0xff, 0xc0, 0xed, 0xa0, 0x80]),
          Buffer.from('"}'),
        ]),
      },
    },
    {
      what: 'a 2 MiB body',
      options: { ...base, payload: { name: 'x'.repeat(2 * 1024 * 1024) } },
    },
  ];
  return [...random.sample(mutations, BODY_MUTATIONS_PER_OPERATION), ...texts, ...odd];
}

function multipartRequests(
  base: Inject,
  body: RequestBody | undefined,
  random: Random,
): FuzzRequest[] {
  if (!body || !Buffer.isBuffer(body.payload)) return [];
  const valid = body.payload;
  const headers = { ...base.headers, 'content-type': 'multipart/form-data; boundary=fuzzboundary' };
  const raw = (what: string, payload: Buffer, contentType = headers['content-type']) => ({
    what,
    options: { ...base, headers: { ...headers, 'content-type': contentType }, payload },
  });
  const named = (filename: string | Buffer, content: string | Buffer) =>
    rawMultipart([{ filename, content }]);
  const cuts = [1, 2, 3].map(() => Math.floor(random.next() * valid.length));
  return [
    ...cuts.map((cut) => ({
      what: `truncated multipart at ${cut}/${valid.length}`,
      options: {
        ...base,
        headers: { ...base.headers, ...body.headers },
        payload: valid.subarray(0, cut),
      },
    })),
    raw('no closing boundary', named('a.rules', RULE_TEXT(9_300_001)).subarray(0, -20)),
    raw('NUL in the file name', named('a\u0000.rules', RULE_TEXT(9_300_002))),
    raw(
      'lone surrogate in the file name',
      named(Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x2e, 0x72]), 'x'),
    ),
    raw('invalid UTF-8 in the file name', named(Buffer.from([0xff, 0xfe, 0x2e, 0x72]), 'x')),
    raw('a path as the file name', named('../../etc/passwd', 'x')),
    raw(
      'NUL in a rule',
      named('nul.rules', `${RULE_TEXT(9_300_003).replace('route', 'rou\u0000te')}\n`),
    ),
    raw('invalid UTF-8 in a rule', named('bad.rules', Buffer.from([0x61, 0x6c, 0xff, 0xfe, 0x0a]))),
    raw('NUL in disable.conf', named('disable.conf', '1:\u00009000002\n')),
    raw('NUL in modify.conf', named('modify.conf', '9000002 "a\u0000" "b"\n')),
    raw('NUL in enable.conf regex', named('enable.conf', 're:\u0000\n')),
    raw(
      'NUL in a policy export',
      named(
        'p.json',
        '{"format":"palisade-policy","format_version":1,"name":"\\u0000","description":"","groups":[],"overrides":[],"thresholds":[],"matchers":[]}',
      ),
    ),
    raw('a huge sid in disable.conf', named('disable.conf', '1:99999999999\n')),
    raw('an empty multipart body', Buffer.from('--fuzzboundary--\r\n')),
    raw('no boundary', named('a.rules', 'x'), 'multipart/form-data'),
    raw('another boundary', named('a.rules', 'x'), 'multipart/form-data; boundary=other'),
    raw('an empty file name', named('', 'x')),
  ];
}

async function requestsFor(op: Operation, entry: Expectation, world: World, random: Random) {
  const kind = kindOf(op);
  const id = kind === undefined ? (entry.pathValue ?? '') : world.ids[kind];
  const headers = entry.access === 'agent' ? world.headers.agent : world.headers.Administrator;
  const body = entry.body ? await entry.body(world) : undefined;
  const base: Inject = {
    method: op.method,
    url: concretePath(op, id, world.updateId),
    headers: { ...headers, ...body?.headers },
    ...(body ? { payload: body.payload } : {}),
  };
  const requests = [
    ...pathRequests(op, base, random),
    ...queryRequests(op, base, random),
    ...bodyRequests(op, base, body, random),
    ...(entry.multipart ? multipartRequests(base, body, random) : []),
  ];
  if (entry.sequenced) {
    const baseSeq = (body?.payload as { seq?: unknown } | undefined)?.seq;
    for (const { options } of requests) {
      const payload = options.payload as { seq?: unknown } | undefined;
      if (payload && typeof payload === 'object' && payload.seq === baseSeq)
        payload.seq = nextSeq++;
    }
  }
  return requests;
}

/** The next agent batch number (sequenced routes). */
let nextSeq = 1000;

/** The request's answer, or 'timeout' when it has none in time. */
async function send(world: World, options: InjectOptions) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), REQUEST_TIMEOUT_MS);
  });
  try {
    return await Promise.race([world.app.inject(options), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Agent routes first (a fuzzed device write may revoke the agent's token), deletions last. */
const order = (op: Operation) => (op.path.includes('/agent/') ? 0 : op.method === 'DELETE' ? 2 : 1);

describe('bad input is a 4xx, never a 500 (fuzz over /openapi.json)', () => {
  let world: World;
  let listed: Operation[];

  beforeAll(async () => {
    world = await buildWorld();
    listed = (await operations(world.app)).sort((a, b) => order(a) - order(b));
  }, 120_000);
  afterAll(() => world.server.close());

  it(`answers generated bad requests with 4xx and in time (seed ${SEED})`, async () => {
    const random = seededRandom(SEED);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const started = performance.now();
    for (const op of listed) {
      const entry = ROUTE_TABLE[op.key];
      if (!entry || entry.stream) continue; // route-matrix.test.ts fails on a missing entry
      for (const request of await requestsFor(op, entry, world, random)) {
        sent += 1;
        const response = await send(world, request.options);
        const label = `${op.key} ${request.what} (seed ${SEED})`;
        if (response === 'timeout') {
          failures.push(`${label}: no answer in ${REQUEST_TIMEOUT_MS} ms`);
          continue;
        }
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        if (response.statusCode >= 500) {
          failures.push(`${label}: ${response.statusCode} ${response.body.slice(0, 200)}`);
          continue;
        }
        if (response.statusCode >= 400) {
          let error: { msg?: unknown; code?: unknown } = {};
          try {
            error = response.json();
          } catch {
            // reported below: an error body that is not JSON
          }
          if (typeof error.msg !== 'string' || typeof error.code !== 'string')
            failures.push(`${label}: ${response.statusCode} without {msg, code}: ${response.body}`);
        }
      }
    }
    const histogram = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    console.log(
      `route fuzz (seed ${SEED}): ${listed.length} operations × 2 callers (Administrator, agent),` +
        ` ${sent} requests in ${Math.round((performance.now() - started) / 1000)} s,` +
        ` ${failures.length} failures; statuses ${histogram.join(' ')}`,
    );
    expect(failures).toEqual([]);
  }, 300_000);
});

// Writes cost what they change (issue 16, item 1), on PostgreSQL (a scratch database): each
// write or list is timed on a server holding the N (10,000 devices on a ruleset; 400
// policies of 1,000 rules) and, as the reference measured in the same run, on a server holding
// one. The two are called alternately, round after round; min / median / max are printed with
// each target, the ratio large / small, and the statements the request ran. Asserts nothing.
//
// BENCH_WRITES_SCALE (default 1) scales the sizes down for a quick run (0.05: 500 devices, 20
// policies of 50 rules); BENCH_ROUNDS (default 7) sets the rounds. The process is pinned to one
// CPU (taskset) so that the PostgreSQL server's backends keep the other.

import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { LightMyRequestResponse } from 'fastify';

process.env['TEST_DB'] ??= 'postgres';
const { ADMIN_EMAIL, ADMIN_PASSWORD, api, signIn, startTestServer } =
  await import('../apps/server/src/test/harness.js');
const { multipart } = await import('../apps/server/src/test/corpus.js');
type TestServer = Awaited<ReturnType<typeof startTestServer>>;

const SCALE = Number(process.env['BENCH_WRITES_SCALE'] ?? 1);
const DEVICES = Math.max(2, Math.round(10_000 * SCALE));
const POLICIES = Math.max(2, Math.round(400 * SCALE));
const RULES = Math.max(10, Math.round(1000 * SCALE));
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);

const pinned = spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], {
  stdio: 'ignore',
});
console.log(
  pinned.status === 0 ? 'pinned to CPU 0' : 'not pinned (taskset missing or refused)',
  `· ${DEVICES} devices, ${POLICIES} policies of ${RULES} rules, ${ROUNDS} rounds, ${process.env['TEST_DB']}`,
);

interface Side {
  server: TestServer;
  headers: Record<string, string>;
  size: { devices: number; policies: number };
  ids: { ruleset: number; held: number; idle: number; policies: number[] };
}

let sid = 8_000_000;
const rule = (n: number) =>
  `alert tcp any any -> $HOME_NET ${1 + (n % 60_000)} (msg:"bench ${n}"; sid:${n}; rev:1;)`;

async function call(
  side: Side,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const response = await api(side.server.app, {
    method,
    url,
    headers: { ...side.headers, ...headers },
    ...(payload === undefined ? {} : { payload }),
  });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.body}`);
  return response;
}
const idOf = (response: LightMyRequestResponse) => response.json<{ id: number }>().id;

/** A server with `policies` policies on a group of RULES rules and `devices` on one ruleset. */
async function build(size: { devices: number; policies: number }): Promise<Side> {
  const server = await startTestServer();
  const side: Side = {
    server,
    headers: await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD),
    size,
    ids: { ruleset: 0, held: 0, idle: 0, policies: [] },
  };
  const texts = Array.from({ length: RULES }, () => rule(++sid)).join('\n');
  for (const [name, text] of [
    ['held.rules', texts],
    ['idle.rules', rule(++sid)],
  ] as const) {
    const body = await multipart([{ name, bytes: `${text}\n` }]);
    await call(side, 'POST', '/rules/import', body.payload, body.headers);
  }
  const groups = (await call(side, 'GET', '/groups/?limit=10')).json<{
    data: { id: number; name: string }[];
  }>().data;
  side.ids.held = groups.find((g) => g.name === 'held')?.id ?? -1;
  side.ids.idle = groups.find((g) => g.name === 'idle')?.id ?? -1;
  for (let i = 0; i < size.policies; i += 1) {
    side.ids.policies.push(
      idOf(await call(side, 'POST', '/policies/', { name: `p${i}`, group_ids: [side.ids.held] })),
    );
  }
  side.ids.ruleset = idOf(await call(side, 'POST', '/fwruleset/', { name: 'fleet' }));
  // Devices straight into the table: creating 10,000 through the API (a password hash each)
  // would take minutes and is not what is measured.
  const one = idOf(
    await call(side, 'POST', '/devices/', {
      name: 'd0',
      password: 'device-secret-1234',
      firewall_id: side.ids.ruleset,
    }),
  );
  await server.db.query(
    `INSERT INTO devices (org_id, name, password_hash, firewall_id)
     SELECT d.org_id, 'd' || g, d.password_hash, d.firewall_id
       FROM devices d, generate_series(1, $2::int - 1) g WHERE d.id = $1`,
    [one, size.devices],
  );
  await server.db.query('ANALYZE');
  return side;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const spread = (values: number[]) =>
  `min ${ms(Math.min(...values))} / median ${ms(median(values))} / max ${ms(Math.max(...values))}`;

/** Times `request` on both sides alternately (one warm-up each); the statements of the last. */
async function compare(request: (side: Side) => Promise<unknown>) {
  const times = new Map<Side, number[]>([
    [small, []],
    [large, []],
  ]);
  const statements = new Map<Side, number>();
  for (let round = -1; round < ROUNDS; round += 1) {
    for (const side of round % 2 === 0 ? [small, large] : [large, small]) {
      const started = performance.now();
      const { statements: sent } = await side.server.statements.during(() => request(side));
      const elapsed = performance.now() - started;
      if (round >= 0) times.get(side)?.push(elapsed);
      statements.set(side, sent.length);
    }
  }
  return {
    small: times.get(small) ?? [],
    large: times.get(large) ?? [],
    statements: `${statements.get(small)} statements with ${describe(small)}, ${statements.get(large)} with ${describe(large)}`,
  };
}
const describe = (side: Side) =>
  `${side.size.devices} device(s) / ${side.size.policies} policy(ies)`;

function report(
  what: string,
  result: Awaited<ReturnType<typeof compare>>,
  target: { text: string; met: (large: number, small: number) => boolean },
) {
  const large = median(result.large);
  const smallMedian = median(result.small);
  console.log(`\n${what}`);
  console.log(`  large: ${spread(result.large)}`);
  console.log(`  small: ${spread(result.small)} (reference)`);
  console.log(`  ratio large / small (medians): ${(large / smallMedian).toFixed(2)}×`);
  console.log(`  ${result.statements}`);
  console.log(`  target ${target.text}: ${target.met(large, smallMedian) ? 'met' : 'NOT met'}`);
}

if (SCALE !== 1)
  console.log("(scaled down: the absolute targets are the full size's, shown for form)");
const small = await build({ devices: 1, policies: 1 });
const large = await build({ devices: DEVICES, policies: POLICIES });
try {
  let port = 0;
  report(
    `PUT /fwruleset/{id} with ${DEVICES} devices assigned (vs 1)`,
    await compare((side) =>
      call(side, 'PUT', `/fwruleset/${side.ids.ruleset}`, {
        name: 'fleet',
        rules: [
          // What keeps the devices reachable, or the lock-out check refuses the save.
          { chain: 'input', action: 'accept', in_interface: 'lo' },
          { chain: 'input', action: 'accept', states: ['established', 'related'] },
          {
            chain: 'input',
            action: 'accept',
            protocol: 'tcp',
            destination_ports: String(1 + (++port % 60_000)),
          },
        ],
      }),
    ),
    { text: `< 1 s at 10,000 devices`, met: (value) => value < 1000 },
  );
  report(
    `GET /policies/ with ${POLICIES} policies (vs 1)`,
    await compare((side) => call(side, 'GET', '/policies/?limit=5000')),
    { text: '< 50 ms at 400 policies', met: (value) => value < 50 },
  );
  report(
    `POST /rules/ with ${POLICIES} policies, none holding the rule (vs 1)`,
    await compare((side) =>
      call(side, 'POST', '/rules/', { text: rule(++sid), group_ids: [side.ids.idle] }),
    ),
    { text: 'within 2× of one policy', met: (value, reference) => value <= 2 * reference },
  );
  // The measure: the request's time over the policies it re-renders. The marginal one
  // (large minus the one-policy reference, over the policies added) is printed beside it.
  const perPolicy = (value: number) => value / POLICIES;
  const marginal = (result: { large: number[]; small: number[] }) =>
    ((median(result.large) - median(result.small)) / (POLICIES - 1)).toFixed(3);
  const holding = await compare((side) =>
    call(side, 'POST', '/rules/', { text: rule(++sid), group_ids: [side.ids.held] }),
  );
  report(
    `POST /rules/ into the group all ${POLICIES} policies of ${RULES} rules use (vs 1)`,
    holding,
    {
      text: '< 1 ms per holding policy',
      met: (value) => perPolicy(value) < 1,
    },
  );
  console.log(
    `  per holding policy: ${perPolicy(median(holding.large)).toFixed(3)} ms (marginal ${marginal(holding)} ms)`,
  );

  // The same with every policy different (an override of its own): nothing rendered is shared.
  for (const [index, id] of large.ids.policies.entries()) {
    const overrides = [{ rule_id: index + 1, action: 'disable' }];
    await call(large, 'PUT', `/policies/${id}`, { overrides });
  }
  const distinct = await compare((side) =>
    call(side, 'POST', '/rules/', { text: rule(++sid), group_ids: [side.ids.held] }),
  );
  report(
    `POST /rules/ into that group, every one of the ${POLICIES} policies different`,
    distinct,
    {
      text: '< 1 ms per holding policy',
      met: (value) => perPolicy(value) < 1,
    },
  );
  console.log(
    `  per holding policy: ${perPolicy(median(distinct.large)).toFixed(3)} ms (marginal ${marginal(distinct)} ms)`,
  );
} finally {
  await small.server.close();
  await large.server.close();
}

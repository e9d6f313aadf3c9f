import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from './corpus.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from './harness.js';

/**
 * Writes cost what they change: each hot write and list runs the same number of statements
 * whether it reaches (or lists) 1 object or 20. Every scenario is measured at the small size,
 * grown, and measured again; on a difference the test names the statements of both runs.
 */

const SMALL = 1;
const LARGE = 20;
const rule = (sid: number, enabled = true) =>
  `${enabled ? '' : '# '}alert tcp any any -> $HOME_NET ${1000 + (sid % 1000)} (msg:"cost ${sid}"; sid:${sid}; rev:1;)`;

describe('statement counts of hot writes and lists', () => {
  let server: TestServer;
  let admin: { authorization: string };
  let sid = 7_000_000;
  let unique = 0;

  const call = async (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> => {
    const response = await api(server.app, {
      method,
      url,
      headers: { ...admin, ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.body}`);
    return response;
  };
  const idOf = (response: LightMyRequestResponse) => response.json<{ id: number }>().id;
  /** The statements one request runs. */
  const measure = async (request: () => Promise<unknown>) =>
    (await server.statements.during(request)).statements;

  /** The same statements (SQL and number) at both sizes. */
  const expectSameCost = (small: string[], large: string[]) => {
    expect(large.length, `small:\n${small.join('\n')}\n\nlarge:\n${large.join('\n')}`).toBe(
      small.length,
    );
    expect(large).toEqual(small);
  };

  const importFile = async (name: string, text: string) => {
    const body = await multipart([{ name, bytes: text }]);
    return call('POST', '/rules/import', body.payload, body.headers);
  };
  const newPolicy = async (groupIds: number[], overrideRule: number) => {
    const n = ++unique;
    return idOf(
      await call('POST', '/policies/', {
        name: `policy ${n}`,
        group_ids: groupIds,
        // Every policy a different content: none may be rendered on another's behalf.
        overrides: [{ rule_id: overrideRule, action: n % 2 === 0 ? 'drop' : 'disable' }],
        matchers: [{ kind: 'enable', matcher: `1:${n}` }],
        thresholds: [{ kind: 'suppress', sid: n, track: 'by_src', ip: '10.0.0.5' }],
      }),
    );
  };
  const policyVersions = async (ids: number[]) => {
    const listed = await call('GET', '/policies/?limit=1000');
    const byId = new Map(
      listed.json<{ data: { id: number; version: number }[] }>().data.map((p) => [p.id, p.version]),
    );
    return ids.map((id) => byId.get(id));
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await server.close();
  });

  it('rule and group writes, and the policy list, cost the same for 1 policy or 20', async () => {
    // The file group "held" is used by the growing policies, "idle" by a bystander policy that
    // no write reaches, "other" by no policy.
    await importFile('held.rules', `${rule(++sid)}\n${rule(++sid, false)}\n`);
    await importFile('other.rules', `${rule(++sid)}\n`);
    await importFile('idle.rules', `${rule(++sid)}\n`);
    const groups = (await call('GET', '/groups/?limit=100')).json<{
      data: { id: number; name: string }[];
    }>().data;
    const held = groups.find((g) => g.name === 'held')?.id ?? -1;
    const other = groups.find((g) => g.name === 'other')?.id ?? -1;
    const idle = groups.find((g) => g.name === 'idle')?.id ?? -1;
    const heldRule = idOf(await call('POST', '/rules/', { text: rule(++sid), group_ids: [held] }));
    const bystander = await newPolicy([idle], heldRule);

    const writes = async () => {
      const created = await measure(() =>
        call('POST', '/rules/', { text: rule(++sid), group_ids: [held] }),
      );
      const createdElsewhere = await measure(() =>
        call('POST', '/rules/', { text: rule(++sid), group_ids: [other] }),
      );
      // A new text of the file takes the console's rules out of the file's group (so each
      // round starts the same): the group write puts one back.
      const imported = await measure(() =>
        importFile('held.rules', `${rule(++sid)}\n${rule(++sid, false)}\n`),
      );
      const grouped = await measure(() =>
        call('PUT', `/groups/${held}`, { add_rule_ids: [heldRule] }),
      );
      const updated = await measure(() =>
        call('PUT', `/rules/${heldRule}`, { text: rule(sid + 500_000) }),
      );
      const listed = await measure(() => call('GET', '/policies/?limit=100'));
      return { created, createdElsewhere, updated, grouped, imported, listed };
    };

    const holding: number[] = [];
    while (holding.length < SMALL) holding.push(await newPolicy([held], heldRule));
    const small = await writes();
    while (holding.length < LARGE) holding.push(await newPolicy([held], heldRule));
    const before = await policyVersions([...holding, bystander]);
    const large = await writes();
    for (const key of Object.keys(small) as (keyof typeof small)[]) {
      expectSameCost(small[key], large[key]);
    }

    // The writes did reach every holding policy, and only those.
    const after = await policyVersions([...holding, bystander]);
    holding.forEach((_, i) => expect(after[i]).toBeGreaterThan(before[i] ?? Infinity));
    expect(after.at(-1)).toBe(before.at(-1));
    // What the batch recorded is what one policy's own render gives: rendering it again on its
    // own (as its render endpoint does) finds the same bytes and keeps the version.
    for (const [i, id] of holding.entries()) {
      const rendered = (await call('GET', `/policies/${id}/render`)).json<{ version: number }>();
      expect(rendered.version).toBe(after[i]);
    }
  });

  it('a ruleset change, and the device, ruleset, rule and group lists, cost the same for 1 device or 20', async () => {
    const profile = idOf(
      await call('POST', '/deviceconfigurationprofiles/', {
        name: 'cost profile',
        variables: { HOME_NET: '[10.0.0.0/8]' },
      }),
    );
    const ruleset = idOf(await call('POST', '/fwruleset/', { name: 'cost ruleset' }));
    const devices: number[] = [];
    const addDevices = async (count: number) => {
      while (devices.length < count) {
        devices.push(
          idOf(
            await call('POST', '/devices/', {
              name: `cost sensor ${devices.length}`,
              password: 'device-secret-1234',
              profile_id: profile,
              firewall_id: ruleset,
            }),
          ),
        );
      }
    };
    let port = 1000;
    const round = async () => ({
      ruleset: await measure(() =>
        call('PUT', `/fwruleset/${ruleset}`, {
          name: 'cost ruleset',
          rules: [
            {
              chain: 'input',
              action: 'accept',
              protocol: 'tcp',
              destination_ports: String(++port),
            },
          ],
        }),
      ),
      profile: await measure(() =>
        call('PUT', `/deviceconfigurationprofiles/${profile}`, {
          name: 'cost profile',
          variables: { HOME_NET: `[10.${++port % 250}.0.0/16]` },
        }),
      ),
      devices: await measure(() => call('GET', '/devices/?limit=100')),
      rulesets: await measure(() => call('GET', '/fwruleset/?limit=100')),
      rules: await measure(() => call('GET', '/rules/?limit=100')),
      groups: await measure(() => call('GET', '/groups/?limit=100')),
    });
    const configVersions = async () =>
      (await call('GET', '/devices/?limit=100'))
        .json<{ data: { id: number; config_version_remote: number }[] }>()
        .data.filter((d) => devices.includes(d.id))
        .map((d) => d.config_version_remote);

    await addDevices(SMALL);
    const small = await round();
    await addDevices(LARGE);
    const before = await configVersions();
    const large = await round();
    for (const key of Object.keys(small) as (keyof typeof small)[]) {
      expectSameCost(small[key], large[key]);
    }
    // Both changes reached every device: each config version moved twice.
    expect(await configVersions()).toEqual(before.map((version) => version + 2));
  });
  it('the rule source list costs the same for 1 source or 20', async () => {
    const newSource = async () =>
      call('POST', '/rulesources/', {
        name: `source ${++unique}`,
        url: 'http://127.0.0.1:9/cost.rules',
        schedule: { kind: 'manual' },
      });
    const list = () => call('GET', '/rulesources/?limit=100&sortBy=rule_count&sortDesc=true');
    for (let i = 0; i < SMALL; i += 1) await newSource();
    const small = await measure(list);
    for (let i = SMALL; i < LARGE; i += 1) await newSource();
    const large = await measure(list);
    expectSameCost(small, large);
    expect((await list()).json<{ recordsTotal: number }>().recordsTotal).toBe(LARGE);
  });
});

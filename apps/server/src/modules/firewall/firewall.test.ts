import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { signInOtherOrganization } from '../../test/fixtures.js';

const run = promisify(execFile);
type Headers = { authorization: string };
interface Ruleset {
  id: number;
  name: string;
  rules: { comment: string; chain: string }[];
  device_count: number;
}

/** The real nft checks a script without applying it. */
async function nftCheck(script: string): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-nft-'));
  try {
    const file = path.join(dir, 'check.nft');
    await writeFile(file, script);
    await run('nft', ['-c', '-f', file]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const RULES = [
  {
    chain: 'input',
    action: 'accept',
    protocol: 'tcp',
    destination_ports: '22',
    source: '$HOME_NET',
    comment: 'ssh from inside',
  },
  { chain: 'input', action: 'accept', states: ['established', 'related'], comment: 'replies' },
  {
    chain: 'input',
    action: 'reject',
    protocol: 'tcp',
    destination_ports: '23',
    comment: 'no telnet',
  },
  {
    chain: 'forward',
    action: 'drop',
    source: '203.0.113.0/24, 198.51.100.7',
    log: true,
    comment: 'blocklist',
  },
];

describe('firewall rulesets', () => {
  let server: TestServer;
  let admin: Headers;
  let ruleset: Ruleset;
  let deviceId: number;

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Headers = admin,
  ) =>
    api(server.app, {
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const profile = await call('POST', '/deviceconfigurationprofiles/', {
      name: 'Site',
      variables: { HOME_NET: '[10.0.0.0/8,192.168.0.0/16]', EXTERNAL_NET: '!$HOME_NET' },
    });
    const device = await call('POST', '/devices/', {
      name: 'edge-1',
      password: 'device-secret-1234',
      profile_id: profile.json<{ id: number }>().id,
    });
    deviceId = device.json<{ id: number }>().id;
  });
  afterAll(() => server.close());

  it('creates a ruleset and keeps its rules in the order given', async () => {
    const created = await call('POST', '/fwruleset/', {
      name: 'Edge',
      policies: { input: 'drop', forward: 'drop', output: 'accept' },
      rules: RULES,
    });
    expect(created.statusCode).toBe(201);
    ruleset = created.json<Ruleset>();
    expect(ruleset.rules.map((r) => r.comment)).toEqual(RULES.map((r) => r.comment));
    const reordered = await call('PUT', `/fwruleset/${ruleset.id}`, {
      name: 'Edge',
      rules: [...RULES].reverse(),
    });
    expect(reordered.json<Ruleset>().rules.map((r) => r.comment)).toEqual(
      [...RULES].reverse().map((r) => r.comment),
    );
    const listed = await call('GET', '/fwruleset/?limit=99999&offset=0');
    expect(listed.json<{ data: Ruleset[]; recordsTotal: number }>()).toMatchObject({
      recordsTotal: 1,
      data: [{ id: ruleset.id }],
    });
    expect((await call('GET', `/fwruleset/${ruleset.id}`)).json<Ruleset>().name).toBe('Edge');
  });

  it('refuses an invalid rule, naming the rule and the field', async () => {
    const bad = await call('POST', '/fwruleset/', {
      name: 'Broken',
      rules: [
        RULES[0],
        {
          chain: 'input',
          action: 'accept',
          protocol: 'any',
          destination_ports: '80',
          comment: 'ports without protocol',
        },
      ],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ msg: string }>().msg).toMatch(/rule 2/);
    expect(bad.json<{ details: { field: string }[] }>().details[0]?.field).toMatch(/^rules\.1\./);
    const badChain = await call('POST', '/fwruleset/', {
      name: 'Broken',
      rules: [{ chain: 'sideways', action: 'accept' }],
    });
    expect(badChain.statusCode).toBe(422);
    expect(badChain.json<{ details: { field: string }[] }>().details[0]?.field).toBe(
      'body.rules.0.chain',
    );
  });

  it('renders for an assigned device into a script nft accepts, and bumps its config version', async () => {
    const before = (await call('GET', `/devices/${deviceId}`)).json<{
      config_version_remote: number;
    }>();
    await call('PUT', `/devices/${deviceId}`, { firewall_id: ruleset.id });
    const preview = (await call('GET', `/devices/${deviceId}/firewall`)).json<{
      config_version: number;
      nftables: string;
      problems: unknown[];
    }>();
    expect(preview.problems).toEqual([]);
    expect(preview.config_version).toBe(before.config_version_remote + 1);
    expect(preview.nftables).toContain('table inet palisade');
    expect(preview.nftables).toContain('10.0.0.0/8');
    await nftCheck(preview.nftables);

    await call('PUT', `/fwruleset/${ruleset.id}`, { name: 'Edge', rules: RULES.slice(0, 2) });
    const after = (await call('GET', `/devices/${deviceId}/firewall`)).json<{
      config_version: number;
      nftables: string;
    }>();
    expect(after.config_version).toBe(preview.config_version + 1);
    expect(after.nftables).not.toContain('no telnet');
  });

  it('manages routes and NAT per device in L3 mode, refusing bad ones', async () => {
    const bad = await call('PUT', `/devices/${deviceId}/network`, {
      l3_mode: true,
      routes: [{ address: '10.20.0.0/33', gateway: '10.0.0.1' }],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ msg: string }>().msg).toContain('route 1');
    const network = {
      l3_mode: true,
      routes: [{ address: '10.20.0.0/16', gateway: '10.0.0.1', metric: 10, interface: 'eth1' }],
      source_nat: [{ out_interface: 'eth0', source: '$HOME_NET' }],
      port_forwards: [
        {
          in_interface: 'eth0',
          protocol: 'tcp',
          port: 8443,
          to_address: '10.0.0.10',
          to_port: 443,
        },
      ],
    };
    const saved = await call('PUT', `/devices/${deviceId}/network`, network);
    expect(saved.statusCode).toBe(200);
    const preview = (await call('GET', `/devices/${deviceId}/firewall`)).json<{
      nftables: string;
      routes: string;
    }>();
    expect(preview.routes).toContain('10.20.0.0/16');
    expect(preview.routes).toContain('10.0.0.1');
    expect(preview.nftables).toMatch(/masquerade/);
    expect(preview.nftables).toMatch(/dnat/);
    await nftCheck(preview.nftables);
  });

  it('keeps a ruleset that devices use, and other organizations out', async () => {
    const refused = await call('DELETE', `/fwruleset/${ruleset.id}`);
    expect(refused.statusCode).toBe(409);
    const other = await signInOtherOrganization(server.app);
    expect((await call('GET', `/fwruleset/${ruleset.id}`, undefined, other)).statusCode).toBe(404);
    expect(
      (await call('GET', '/fwruleset/', undefined, other)).json<{ recordsTotal: number }>()
        .recordsTotal,
    ).toBe(0);
    const foreign = await call(
      'POST',
      '/devices/',
      { name: 'x', password: 'device-secret-1234', firewall_id: ruleset.id },
      other,
    );
    expect(foreign.statusCode).toBe(404);
  });
});

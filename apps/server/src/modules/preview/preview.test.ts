import type { ChangePreview } from '@palisade/contract';
import { PREVIEW_DEVICES_DETAILED } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_CHANNEL } from '../../plugins/device-events.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  until,
  type TestServer,
} from '../../test/harness.js';
import { signInOtherOrganization } from '../../test/fixtures.js';
import { postFiles } from '../../test/corpus.js';

type Headers = { authorization: string };

const SAFE = [
  { chain: 'input', action: 'accept', in_interface: 'lo', comment: 'loopback' },
  { chain: 'input', action: 'accept', states: ['established', 'related'], comment: 'replies' },
  { chain: 'output', action: 'accept' },
];
const POLICIES = { input: 'drop', forward: 'accept', output: 'drop' };
const SSH = {
  chain: 'input',
  action: 'accept',
  protocol: 'tcp',
  destination_ports: '22',
  comment: 'ssh from the jump host',
};
const RULE = (sid: number) =>
  `alert tcp any any -> $HOME_NET 22 (msg:"preview ${sid}"; sid:${sid}; rev:1;)`;

describe('change previews: what a save would send, without sending it', () => {
  let server: TestServer;
  let admin: Headers;
  let viewer: Headers;
  let stranger: Headers;
  let rulesetId: number;
  let policyId: number;
  let groupId: number;
  const assigned: number[] = [];
  let spareId: number;

  const call = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object, headers = admin) =>
    api(server.app, { method, url, headers, ...(payload ? { payload } : {}) });
  const preview = async (method: 'POST' | 'PUT', url: string, payload: object) => {
    const response = await call(method, url, payload);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ChangePreview>();
  };

  /** What devices, rulesets, policies, rules, audit and versions hold: a preview moves none. */
  const state = () =>
    Promise.all([
      server.db.query('SELECT * FROM devices ORDER BY id'),
      server.db.query('SELECT * FROM firewall_rulesets ORDER BY id'),
      server.db.query('SELECT * FROM policies ORDER BY id'),
      server.db.query('SELECT * FROM policy_overrides ORDER BY policy_id, rule_id'),
      server.db.query('SELECT * FROM group_rules ORDER BY group_id, rule_id'),
      server.db.query('SELECT * FROM rules ORDER BY id'),
      // Nor its audit record, nor a version of what it rendered.
      server.db.query('SELECT * FROM audit_log ORDER BY id'),
      server.db.query('SELECT * FROM object_versions ORDER BY 1'),
      server.db.query('SELECT count(*) FROM rendered_contents'),
    ]);

  /** Config and policy versions by device, as the agents read them. */
  const versions = async () =>
    new Map(
      (
        await server.db.query<{ id: number; config_version: number; policy_version: number }>(
          `SELECT d.id, d.config_version, p.version AS policy_version
             FROM devices d LEFT JOIN policies p ON p.id = d.policy_id`,
        )
      ).map((row) => [row.id, [row.config_version, row.policy_version]]),
    );
  const moved = (before: Map<number, number[]>, after: Map<number, number[]>) =>
    [...after].filter(([id, v]) => JSON.stringify(before.get(id)) !== JSON.stringify(v)).length;

  /**
   * Runs `work` while listening on the devices' channel, then sends a marker of its own and
   * waits for it: notifications arrive in commit order, so whatever `work` notified came first.
   */
  async function notifiedDuring(work: () => Promise<unknown>): Promise<string[]> {
    const heard: string[] = [];
    const stop = await server.db.listen(DEVICE_CHANNEL, (payload) => heard.push(payload));
    try {
      await work();
      await server.db.query('SELECT pg_notify($1, $2)', [DEVICE_CHANNEL, '999999']);
      await until('the marker notification', () => (heard.includes('999999') ? true : undefined));
      return heard.filter((payload) => payload !== '999999');
    } finally {
      await stop();
    }
  }

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: 'https://10.0.0.9:9443' });
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await call('POST', '/users/', {
      email: 'viewer@example.com',
      password: 'Viewer#2026x',
      role: 'Viewer',
    });
    viewer = await signIn(server.app, 'viewer@example.com', 'Viewer#2026x');
    stranger = await signInOtherOrganization(server.app);

    const rule = await call('POST', '/rules/', { text: RULE(7_100_001) });
    expect(rule.statusCode, rule.body).toBe(201);
    const group = await call('POST', '/groups/', { name: 'Preview group' });
    groupId = group.json<{ id: number }>().id;
    await call('PUT', `/groups/${groupId}`, { rule_ids: [rule.json<{ id: number }>().id] });
    const policy = await call('POST', '/policies/', { name: 'Preview', group_ids: [groupId] });
    policyId = policy.json<{ id: number }>().id;
    const ruleset = await call('POST', '/fwruleset/', {
      name: 'Edge',
      policies: POLICIES,
      rules: SAFE,
    });
    rulesetId = ruleset.json<{ id: number }>().id;
    // More devices on the ruleset than a preview details.
    for (let i = 0; i < PREVIEW_DEVICES_DETAILED + 2; i += 1) {
      const device = await call('POST', '/devices/', {
        name: `edge-${String(i).padStart(2, '0')}`,
        password: 'device-secret-1234',
        firewall_id: rulesetId,
        policy_id: policyId,
      });
      expect(device.statusCode, device.body).toBe(201);
      assigned.push(device.json<{ id: number }>().id);
    }
    const spare = await call('POST', '/devices/', {
      name: 'spare',
      password: 'device-secret-1234',
    });
    spareId = spare.json<{ id: number }>().id;
  }, 180_000);

  afterAll(async () => {
    await server.close();
  });

  it('a ruleset edit: counts every device, details the first, changes and notifies nothing', async () => {
    const edit = { name: 'Edge', policies: POLICIES, rules: [...SAFE, SSH] };
    const before = await state();
    const versionsBefore = await versions();
    let answer: ChangePreview | undefined;
    const heard = await notifiedDuring(async () => {
      answer = await preview('PUT', `/fwruleset/${rulesetId}/preview`, edit);
    });
    expect(heard).toEqual([]);
    expect(await state()).toEqual(before);
    if (!answer) throw new Error('no preview');

    expect(answer.devices_reached).toBe(assigned.length);
    expect(answer.config_changed).toBe(assigned.length);
    expect(answer.policy_changed).toBe(0);
    expect(answer.devices_truncated).toBe(true);
    expect(answer.devices.map((d) => d.id)).toEqual(assigned.slice(0, PREVIEW_DEVICES_DETAILED));
    const first = answer.devices[0];
    expect(first?.name).toBe('edge-00');
    expect(first?.policy).toBeNull();
    expect(first?.variables).toBeNull();
    const added = first?.nftables_diff?.diff.split('\n').filter((line) => /^\+\s/.test(line));
    expect(added?.some((line) => line.includes('dport 22') && line.includes('accept'))).toBe(true);
    expect(answer.lockout).toEqual([]);

    // The save itself then moves exactly the devices the preview counted.
    const saved = await call('PUT', `/fwruleset/${rulesetId}`, edit);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(moved(versionsBefore, await versions())).toBe(answer.devices_reached);
  });

  it('a policy edit shows the rules each device loses', async () => {
    const [rule] = await server.db.query<{ id: number }>(
      'SELECT id FROM rules WHERE sid = $1',
      [7_100_001],
    );
    const edit = { overrides: [{ rule_id: rule?.id, action: 'disable' }] };
    const before = await state();
    const versionsBefore = await versions();
    const answer = await preview('PUT', `/policies/${policyId}/preview`, edit);
    expect(await state()).toEqual(before);
    expect(answer.devices_reached).toBe(assigned.length);
    expect(answer.policy_changed).toBe(assigned.length);
    expect(answer.config_changed).toBe(0);
    const change = answer.devices[0]?.policy;
    expect(change).toMatchObject({ added: 0, removed: 1, changed: 0 });
    expect(change?.removed_rules).toEqual([{ gid: 1, sid: 7_100_001, msg: 'preview 7100001' }]);
    expect(change?.to?.id).toBe(policyId);
    expect(answer.devices[0]?.nftables_diff).toBeNull();

    const saved = await call('PUT', `/policies/${policyId}`, edit);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(moved(versionsBefore, await versions())).toBe(answer.devices_reached);
  });

  it('a rule added to a group used by the policy reaches its devices', async () => {
    const answer = await preview('POST', '/rules/preview', {
      text: RULE(7_100_002),
      group_ids: [groupId],
    });
    expect(answer.policy_changed).toBe(assigned.length);
    expect(answer.devices[0]?.policy).toMatchObject({ added: 1, removed: 0 });
    const [row] = await server.db.query('SELECT id FROM rules WHERE sid = $1', [7_100_002]);
    expect(row).toBeUndefined();
  });

  describe('uploads: a rule import and a policy upload, previewed with the same files', () => {
    const SID = 7_100_003;
    const upload = async (
      url: string,
      files: { name: string; bytes: string }[],
      headers: Headers = admin,
    ) => {
      return postFiles(server.app, url, headers, files);
    };
    const revised = (rev: number) =>
      `alert tcp any any -> $HOME_NET 23 (msg:"preview telnet r${rev}"; sid:${SID}; rev:${rev};)\n`;

    beforeAll(async () => {
      const rule = await call('POST', '/rules/', { text: revised(1), group_ids: [groupId] });
      expect(rule.statusCode, rule.body).toBe(201);
    });

    it('an import that revises a rule the policy holds shows it changed on each device', async () => {
      const before = await state();
      const response = await upload('/rules/import/preview', [
        { name: 'revised.rules', bytes: revised(2) },
      ]);
      expect(response.statusCode, response.body).toBe(200);
      expect(await state()).toEqual(before);
      const answer = response.json<ChangePreview>();
      expect(answer.devices_reached).toBe(assigned.length);
      expect(answer.policy_changed).toBe(assigned.length);
      expect(answer.devices[0]?.policy).toMatchObject({ added: 0, removed: 0, changed: 1 });

      const versionsBefore = await versions();
      const saved = await upload('/rules/import', [{ name: 'revised.rules', bytes: revised(2) }]);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(moved(versionsBefore, await versions())).toBe(answer.devices_reached);
    });

    it('a policy upload that disables the rule shows it removed on each device', async () => {
      const before = await state();
      const files = [{ name: 'disable.conf', bytes: `1:${SID}\n` }];
      const response = await upload(`/policies/${policyId}/upload/preview`, files);
      expect(response.statusCode, response.body).toBe(200);
      expect(await state()).toEqual(before);
      const answer = response.json<ChangePreview>();
      expect(answer.devices_reached).toBe(assigned.length);
      expect(answer.devices[0]?.policy?.removed_rules).toEqual([
        { gid: 1, sid: SID, msg: 'preview telnet r2' },
      ]);

      const versionsBefore = await versions();
      const saved = await upload(`/policies/${policyId}/upload`, files);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(moved(versionsBefore, await versions())).toBe(answer.devices_reached);
    });

    it('refuses what the saves refuse: a Viewer, a bad line, another organization', async () => {
      const files = [{ name: 'revised.rules', bytes: revised(3) }];
      expect((await upload('/rules/import/preview', files, viewer)).statusCode).toBe(403);
      const bad = await upload('/rules/import/preview?strict=true', [
        { name: 'bad.rules', bytes: `${revised(3)}alert tcp any any -> any (sid:1;)\n` },
      ]);
      expect(bad.statusCode).toBe(422);
      expect(bad.body).toMatch(/bad\.rules.*line 2|line 2.*bad\.rules/);
      const policyUpload = `/policies/${policyId}/upload/preview`;
      const disable = [{ name: 'disable.conf', bytes: `1:${SID}\n` }];
      expect((await upload(policyUpload, disable, viewer)).statusCode).toBe(403);
      expect((await upload(policyUpload, disable, stranger)).statusCode).toBe(404);
    });
  });

  it('an assignment previews the whole ruleset for the device it reaches', async () => {
    const before = await state();
    const answer = await preview('PUT', `/devices/${spareId}/preview`, { firewall_id: rulesetId });
    expect(await state()).toEqual(before);
    expect(answer.devices_reached).toBe(1);
    expect(answer.devices_truncated).toBe(false);
    const [device] = answer.devices;
    expect(device?.id).toBe(spareId);
    expect(device?.nftables_diff?.diff).toContain('+table inet palisade');
  });

  it('a profile edit shows the variables and the routes each device would get', async () => {
    const profile = await call('POST', '/deviceconfigurationprofiles/', {
      name: 'Branch',
      variables: { HOME_NET: '10.1.0.0/16', DNS: '10.1.0.53' },
    });
    const id = profile.json<{ id: number }>().id;
    const device = await call('POST', '/devices/', {
      name: 'branch-1',
      password: 'device-secret-1234',
      profile_id: id,
    });
    const deviceId = device.json<{ id: number }>().id;
    const routes = await preview('PUT', `/devices/${deviceId}/network/preview`, {
      l3_mode: true,
      routes: [{ address: '10.20.0.0/16', gateway: '10.1.0.1' }],
    });
    expect(routes.devices.map((d) => d.id)).toEqual([deviceId]);
    expect(routes.devices[0]?.routes_diff?.diff).toMatch(/^\+.*10\.20\.0\.0\/16/m);

    const before = await state();
    const answer = await preview('PUT', `/deviceconfigurationprofiles/${id}/preview`, {
      variables: { HOME_NET: '10.2.0.0/16', NTP: '10.1.0.123' },
    });
    expect(await state()).toEqual(before);
    expect(answer.devices_reached).toBe(1);
    expect(answer.devices[0]?.variables).toEqual({
      added: [{ name: 'NTP', value: '10.1.0.123' }],
      removed: [{ name: 'DNS', value: '10.1.0.53' }],
      changed: [{ name: 'HOME_NET', old: '10.1.0.0/16', new: '10.2.0.0/16' }],
    });
  });

  it('a change that would cut a device off is shown, not refused, in its preview', async () => {
    const unsafe = { name: 'Edge', policies: POLICIES, rules: [SSH] };
    const answer = await preview('PUT', `/fwruleset/${rulesetId}/preview`, unsafe);
    expect(answer.devices_reached).toBe(assigned.length);
    const [finding] = answer.lockout;
    expect(finding?.device_name).toBe('edge-00');
    expect(finding?.overridden).toBe(false);
    expect(finding?.message).toMatch(/edge-00 would lose/);
    // The save itself is refused with the same words.
    const saved = await call('PUT', `/fwruleset/${rulesetId}`, unsafe);
    expect(saved.statusCode).toBe(422);
    expect(saved.json<{ msg: string }>().msg).toBe(finding?.message);
  });

  it('a rollback previews like a save: the ruleset as it was, before the SSH rule', async () => {
    const before = await state();
    const answer = await preview('POST', `/fwruleset/${rulesetId}/rollback/preview`, {
      version: 1,
    });
    expect(await state()).toEqual(before);
    expect(answer.devices_reached).toBe(assigned.length);
    expect(answer.devices[0]?.nftables_diff?.diff).toMatch(/^-.*dport 22/m);
  });

  it('says nothing is sent when the object reaches no device', async () => {
    const lonely = await call('POST', '/fwruleset/', { name: 'Unused', rules: SAFE });
    const answer = await preview('PUT', `/fwruleset/${lonely.json<{ id: number }>().id}/preview`, {
      name: 'Unused',
      rules: [...SAFE, SSH],
    });
    expect(answer).toMatchObject({ devices_reached: 0, devices: [], devices_truncated: false });
  });

  it('refuses a Viewer, hides another organization, and checks the body as the save does', async () => {
    const edit = { name: 'Edge', policies: POLICIES, rules: SAFE };
    const url = `/fwruleset/${rulesetId}/preview`;
    expect((await call('PUT', url, edit, viewer)).statusCode).toBe(403);
    expect((await call('PUT', url, edit, stranger)).statusCode).toBe(404);
    const bad = await call('PUT', url, { ...edit, rules: [{ chain: 'sideways' }] });
    expect(bad.statusCode).toBe(422);
    const network = await call(
      'PUT',
      `/devices/${spareId}/network/preview`,
      { l3_mode: false },
      viewer,
    );
    expect(network.statusCode).toBe(403);
  });
});

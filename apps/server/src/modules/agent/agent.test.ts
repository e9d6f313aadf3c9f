import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eveAlerts } from '../../test/corpus.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { consoleEvents, policyFromRules, signInOtherOrganization } from '../../test/fixtures.js';

type Headers = { authorization: string };
interface DeviceBody {
  id: number;
  online: boolean;
  update_pending: boolean;
  config_version_remote: number;
  policy_version_remote: number;
  config_version_local: number | null;
  policy_version_local: number | null;
  last_error: string | null;
  metrics: { cpu?: number } | null;
}

const METRICS = {
  cpu: 12.5,
  memory_used: 2e9,
  memory_total: 8e9,
  disk_used: 1e10,
  disk_total: 5e10,
  net_in: 1000,
  net_out: 500,
};
const LOCAL_RULES = 'alert tcp any any -> $HOME_NET 22 (msg:"SSH"; sid:7000001; rev:1;)\n';

describe('devices and their agents', () => {
  let server: TestServer;
  let admin: Headers;
  let device: DeviceBody;
  let agent: Headers;
  let policyId: number;

  const console_ = (
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
  const asAgent = (
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = agent,
  ) =>
    api(server.app, {
      method,
      url: `/agent/${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const view = async (id = device.id) =>
    (await console_('GET', `/devices/${id}`)).json<DeviceBody>();
  const agentLogin = async (deviceId: number, password: string) => {
    const response = await api(server.app, {
      method: 'POST',
      url: '/agent/login',
      payload: { device_id: deviceId, password, protocol: 1 },
    });
    return response;
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    policyId = await policyFromRules(server.app, admin, 'local.rules', LOCAL_RULES, 'Sensors');
  });
  afterAll(() => server.close());

  it('validates profile variables, naming the bad entry', async () => {
    const bad = await console_('POST', '/deviceconfigurationprofiles/', {
      name: 'Branch',
      variables: {
        HOME_NET: '[10.0.0.0/8,10.300.0.1]',
        EXTERNAL_NET: '!$HOMENET',
        HTTP_PORTS: '[80,99999]',
      },
    });
    expect(bad.statusCode).toBe(422);
    const msgs = bad.json<{ details: { msg: string }[] }>().details.map((d) => d.msg);
    expect(msgs).toEqual(
      expect.arrayContaining([
        'HOME_NET: "10.300.0.1" is not an IP address or CIDR block',
        'EXTERNAL_NET: unknown variable $HOMENET',
        expect.stringMatching(/^HTTP_PORTS: /),
      ]),
    );
    const good = await console_('POST', '/deviceconfigurationprofiles/', {
      name: 'Branch',
      variables: {
        HOME_NET: '[10.0.0.0/8,192.168.0.0/16]',
        EXTERNAL_NET: '!$HOME_NET',
        HTTP_PORTS: '[80,8080:8090]',
      },
    });
    expect(good.statusCode).toBe(201);
  });

  it('creates a device whose password is write-only', async () => {
    const profiles = (
      await console_('GET', '/deviceconfigurationprofiles/?limit=99999&offset=0')
    ).json<{ data: { id: number }[] }>();
    const created = await console_('POST', '/devices/', {
      name: 'sensor-1',
      address: '10.0.0.2',
      city: 'Oslo',
      password: 'device-secret-1234',
      profile_id: profiles.data[0]?.id,
      policy_id: policyId,
    });
    expect(created.statusCode).toBe(201);
    expect(created.body).not.toContain('device-secret');
    device = created.json<DeviceBody>();
    expect(device).toMatchObject({
      online: false,
      update_pending: true,
      config_version_local: null,
      config_version_remote: 1,
    });
    expect(device.policy_version_remote).toBeGreaterThan(0);
    const listed = (await console_('GET', '/devices/?limit=99999&offset=0&filter=oslo')).json<{
      recordsTotal: number;
    }>();
    expect(listed.recordsTotal).toBe(1);
  });

  it('signs the agent in with device id and password, and nothing else', async () => {
    expect((await agentLogin(device.id, 'wrong-password-000')).statusCode).toBe(401);
    expect((await agentLogin(9999, 'device-secret-1234')).statusCode).toBe(401);
    const ok = await agentLogin(device.id, 'device-secret-1234');
    expect(ok.statusCode).toBe(200);
    agent = { authorization: `Bearer ${ok.json<{ access_token: string }>().access_token}` };
    // An agent token opens no console route; a console token opens no agent route.
    expect((await console_('GET', '/devices/', undefined, agent)).statusCode).toBe(401);
    expect((await console_('GET', '/users/me', undefined, agent)).statusCode).toBe(401);
    expect((await asAgent('GET', 'bundle', undefined, admin)).statusCode).toBe(401);
  });

  it('answers sign-ins past those it can hash at once with 429 and a Retry-After', async () => {
    const answers = await Promise.all(
      Array.from({ length: 48 }, () => agentLogin(device.id, 'device-secret-1234')),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(32);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    for (const answer of refused) {
      expect(answer.json()).toMatchObject({ code: 'rate_limited' });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    // Refused for being busy is no failed sign-in: the device signs in at once afterwards.
    expect((await agentLogin(device.id, 'device-secret-1234')).statusCode).toBe(200);
  });

  it('goes online with a heartbeat, which records metrics and says to pull', async () => {
    const beat = await asAgent('POST', 'heartbeat', {
      state: 'running',
      metrics: METRICS,
      local: { config_version: null, policy_version: null },
      agent_version: '0.1.0',
    });
    expect(beat.statusCode).toBe(200);
    expect(beat.json()).toMatchObject({ pull: true, interval: 30, remote: { config_version: 1 } });
    expect(await view()).toMatchObject({ online: true, metrics: METRICS });
    const monitor = (await console_('GET', `/devicemonitor/${device.id}`)).json<{
      data: { cpu: number }[];
    }>();
    expect(monitor.data.map((s) => s.cpu)).toEqual([12.5]);
  });

  it('serves the bundle with an ETag; applying it clears update pending', async () => {
    const bundle = await asAgent('GET', 'bundle');
    expect(bundle.statusCode).toBe(200);
    const body = bundle.json<{
      rules: string;
      variables: Record<string, string>;
      config_version: number;
      policy_version: number;
    }>();
    expect(body.rules).toBe(LOCAL_RULES);
    expect(body.variables).toMatchObject({ HOME_NET: '[10.0.0.0/8,192.168.0.0/16]' });
    const etag = bundle.headers['etag'] as string;
    expect(
      (await asAgent('GET', 'bundle', undefined, { ...agent, 'if-none-match': etag })).statusCode,
    ).toBe(304);

    await asAgent('POST', 'applied', {
      config_version: body.config_version,
      policy_version: body.policy_version,
      ok: true,
    });
    expect(await view()).toMatchObject({
      update_pending: false,
      config_version_local: body.config_version,
      policy_version_local: body.policy_version,
      last_error: null,
    });
  });

  it('shows update pending after a policy change, and a failed apply as the last error', async () => {
    const [rule] = (await console_('GET', '/rules/?filter=sid:7000001')).json<{
      data: { id: number }[];
    }>().data;
    await console_('PUT', `/policies/${policyId}`, {
      overrides: [{ rule_id: rule?.id, action: 'drop' }],
    });
    const pending = await view();
    expect(pending.update_pending).toBe(true);
    const bundle = (await asAgent('GET', 'bundle')).json<{
      rules: string;
      config_version: number;
      policy_version: number;
    }>();
    expect(bundle.rules).toMatch(/^drop tcp/);
    await asAgent('POST', 'applied', {
      ...bundle,
      ok: false,
      error: 'suricatasc: reload-rules failed: exit 1',
    });
    expect(await view()).toMatchObject({
      update_pending: true,
      last_error: 'suricatasc: reload-rules failed: exit 1',
    });
  });

  it('asks for a flush with /deviceupdate, and the bundle comes again despite the ETag', async () => {
    const current = await asAgent('GET', 'bundle');
    const etag = current.headers['etag'] as string;
    expect((await console_('GET', `/deviceupdate/${device.id}`)).statusCode).toBe(200);
    expect((await view()).update_pending).toBe(true);
    expect(
      (await asAgent('GET', 'bundle', undefined, { ...agent, 'if-none-match': etag })).statusCode,
    ).toBe(200);
    expect(
      (await asAgent('GET', 'bundle', undefined, { ...agent, 'if-none-match': etag })).statusCode,
    ).toBe(304);
  });

  it('says to pull once after a flush, and no more once the bundle was pulled', async () => {
    const current = (await asAgent('GET', 'bundle')).json<{
      config_version: number;
      policy_version: number;
    }>();
    const pull = async () =>
      (
        await asAgent('POST', 'heartbeat', {
          state: 'running',
          metrics: METRICS,
          local: { config_version: current.config_version, policy_version: current.policy_version },
          agent_version: '0.1.0',
          last_error: null,
        })
      ).json<{ pull: boolean }>().pull;
    expect(await pull()).toBe(false);
    // Routine from here on: answered from the row the server remembers for the device.
    expect(await pull()).toBe(false);
    expect((await console_('GET', `/deviceupdate/${device.id}`)).statusCode).toBe(200);
    // Once the flush's notice reached the heartbeats, they answer from a fresh row.
    await vi.waitFor(async () => expect(await pull()).toBe(true), { timeout: 5000 });
    expect((await asAgent('GET', 'bundle')).statusCode).toBe(200);
    for (let beat = 0; beat < 3; beat += 1) expect(await pull()).toBe(false);
  });

  it('stores alert batches exactly once, real eve.json events included', async () => {
    const events = eveAlerts('Menna-Islam__Zeus__eve.json').slice(0, 150);
    expect(events.length).toBe(150);
    const first = await asAgent('POST', 'alerts', { seq: 1, events: events.slice(0, 100) });
    expect(first.json()).toEqual({ ack: 1, rejected: [] });
    const retried = await asAgent('POST', 'alerts', { seq: 1, events: events.slice(0, 100) });
    expect(retried.json()).toEqual({ ack: 1, rejected: [] });
    expect((await asAgent('POST', 'alerts', { seq: 2, events: events.slice(100) })).json()).toEqual(
      { ack: 2, rejected: [] },
    );

    const shown = (await console_('GET', `/devicelogsnort/${device.id}`)).json<{
      data: { sid: number; src_ip: string; time: string }[];
    }>();
    expect(shown.data).toHaveLength(100);
    const count = await server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM device_alerts WHERE device_id = $1',
      [device.id],
    );
    expect(count[0]?.n).toBe(150);
    const newest = [...events].sort(
      (a, b) =>
        Date.parse(String(b['timestamp']).replace(/(\d{2})(\d{2})$/, '$1:$2')) -
        Date.parse(String(a['timestamp']).replace(/(\d{2})(\d{2})$/, '$1:$2')),
    )[0];
    expect(shown.data[0]?.src_ip).toBe(newest?.['src_ip']);
  });

  it('stores log batches once', async () => {
    const lines = [{ time: new Date().toISOString(), level: 'info', msg: 'rules reloaded' }];
    expect((await asAgent('POST', 'logs', { seq: 1, lines })).json()).toEqual({ ack: 1 });
    expect((await asAgent('POST', 'logs', { seq: 1, lines })).json()).toEqual({ ack: 1 });
    const log = (await console_('GET', `/devicelog/${device.id}`)).json<{
      data: { msg: string }[];
    }>();
    expect(log.data.map((l) => l.msg)).toEqual(['rules reloaded']);
  });

  it("revokes the agent's token when the device password changes", async () => {
    await console_('PUT', `/devices/${device.id}`, { password: 'rotated-secret-5678' });
    expect((await asAgent('GET', 'bundle')).statusCode).toBe(401);
    const again = await agentLogin(device.id, 'rotated-secret-5678');
    agent = { authorization: `Bearer ${again.json<{ access_token: string }>().access_token}` };
    expect((await asAgent('GET', 'bundle')).statusCode).toBe(200);
  });

  it('records heartbeats arriving together, each device its own, and refuses a revoked token among them', async () => {
    const fleet: { id: number; headers: Headers }[] = [];
    for (let n = 0; n < 6; n += 1) {
      const created = await console_('POST', '/devices/', {
        name: `together-${n}`,
        password: 'together-secret-1234',
      });
      const id = created.json<{ id: number }>().id;
      const login = await agentLogin(id, 'together-secret-1234');
      fleet.push({
        id,
        headers: { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` },
      });
    }
    const revoked = fleet[5];
    if (!revoked) throw new Error('no device');
    await console_('PUT', `/devices/${revoked.id}`, { password: 'rotated-secret-1234' });

    // Three beats per device, all in flight at once: they share write statements.
    const beats = fleet.flatMap((device, n) =>
      [0, 1, 2].map((k) =>
        asAgent(
          'POST',
          'heartbeat',
          {
            state: k === 2 ? 'running' : 'starting',
            metrics: { ...METRICS, cpu: n * 10 + k },
            local: { config_version: n, policy_version: null },
            agent_version: `0.1.${n}`,
          },
          device.headers,
        ).then((response) => ({ device: device.id, status: response.statusCode })),
      ),
    );
    const answers = await Promise.all(beats);
    for (const answer of answers) {
      expect(answer.status).toBe(answer.device === revoked.id ? 401 : 200);
    }
    for (const [n, device] of fleet.entries()) {
      const seen = await view(device.id);
      if (device === revoked) {
        expect(seen.online).toBe(false);
        continue;
      }
      expect(seen).toMatchObject({ online: true, config_version_local: n });
      const monitor = (await console_('GET', `/devicemonitor/${device.id}`)).json<{
        data: { cpu: number }[];
      }>();
      expect(monitor.data.length).toBeGreaterThanOrEqual(1);
      expect(monitor.data.every((s) => Math.floor(s.cpu / 10) === n)).toBe(true);
    }
  });

  it('writes apply reports and log batches arriving together, refusing a revoked token among them', async () => {
    const fleet: { id: number; headers: Headers }[] = [];
    for (let n = 0; n < 4; n += 1) {
      const created = await console_('POST', '/devices/', {
        name: `reports-${n}`,
        password: 'reports-secret-1234',
      });
      const id = created.json<{ id: number }>().id;
      const login = await agentLogin(id, 'reports-secret-1234');
      fleet.push({
        id,
        headers: { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` },
      });
    }
    const revoked = fleet[3];
    if (!revoked) throw new Error('no device');
    await console_('PUT', `/devices/${revoked.id}`, { password: 'rotated-secret-1234' });

    // All in flight at once: the reports share a statement, as do the log batches.
    const answers = await Promise.all(
      fleet.flatMap((device, n) => [
        asAgent(
          'POST',
          'applied',
          { config_version: 40 + n, policy_version: 0, ok: true },
          device.headers,
        ).then((response) => ({ device: device.id, status: response.statusCode })),
        asAgent(
          'POST',
          'logs',
          { seq: 1, lines: [{ time: new Date().toISOString(), level: 'info', msg: `log ${n}` }] },
          device.headers,
        ).then((response) => ({
          device: device.id,
          status: response.statusCode,
          ack: response.statusCode === 200 ? response.json<{ ack: number }>().ack : null,
        })),
      ]),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(answer.device === revoked.id ? 401 : 200);
      if ('ack' in answer && answer.device !== revoked.id) expect(answer.ack).toBe(1);
    }
    for (const [n, device] of fleet.entries()) {
      const seen = await view(device.id);
      const log = (await console_('GET', `/devicelog/${device.id}`)).json<{
        data: { msg: string }[];
      }>();
      if (device === revoked) {
        expect(seen.config_version_local).toBeNull();
        expect(log.data).toEqual([]);
        continue;
      }
      expect(seen.config_version_local).toBe(40 + n);
      expect(log.data.map((line) => line.msg)).toEqual([`log ${n}`]);
    }
    // A deleted device's token opens neither.
    const gone = fleet[0];
    if (!gone) throw new Error('no device');
    await console_('DELETE', `/devices/${gone.id}`);
    const report = { config_version: 1, policy_version: 0, ok: true };
    expect((await asAgent('POST', 'applied', report, gone.headers)).statusCode).toBe(401);
    const batch = { seq: 2, lines: [{ time: new Date().toISOString(), level: 'info', msg: 'x' }] };
    expect((await asAgent('POST', 'logs', batch, gone.headers)).statusCode).toBe(401);
  });

  it('answers routine beats before their write, a changed beat after it, and stops honouring a revoked token', async () => {
    const created = await console_('POST', '/devices/', {
      name: 'routine',
      password: 'routine-secret-1234',
    });
    const id = created.json<{ id: number }>().id;
    const deviceSignIn = async (password: string) => {
      const login = await agentLogin(id, password);
      return { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` };
    };
    let headers = await deviceSignIn('routine-secret-1234');
    const beat = (cpu: number, lastError: string | null = null) =>
      asAgent(
        'POST',
        'heartbeat',
        {
          state: 'running',
          metrics: { ...METRICS, cpu },
          local: { config_version: 1, policy_version: null },
          agent_version: '0.1.0',
          last_error: lastError,
        },
        headers,
      );
    const samples = async () =>
      (await console_('GET', `/devicemonitor/${id}`))
        .json<{ data: { cpu: number }[] }>()
        .data.map((s) => s.cpu);

    expect((await beat(1)).statusCode).toBe(200);
    expect(await samples()).toEqual([1]);
    // Routine: same state, versions and error as the last written beat; its sample still lands.
    const routine = await beat(2);
    expect(routine.statusCode).toBe(200);
    expect(routine.json()).toMatchObject({ remote: { config_version: 1 }, interval: 30 });
    await expect.poll(samples, { timeout: 5000 }).toEqual([1, 2]);
    // A new last error is what the console shows: it is written before the answer.
    expect((await beat(3, 'reload failed')).statusCode).toBe(200);
    expect((await view(id)).last_error).toBe('reload failed');

    await console_('PUT', `/devices/${id}`, { password: 'routine-secret-5678' });
    // The change reaches the heartbeat path by NOTIFY, within moments on any replica.
    await expect.poll(async () => (await beat(4, 'reload failed')).statusCode).toBe(401);
    // Beats are written in order: once the new token's first beat is answered, so was that one.
    headers = await deviceSignIn('routine-secret-5678');
    expect((await beat(5)).statusCode).toBe(200);
    const stored = await samples();
    expect(stored).toContain(5);
    expect(stored).not.toContain(4);
  });

  it('keeps other organizations and Viewers out', async () => {
    const other = await signInOtherOrganization(server.app);
    expect((await console_('GET', `/devices/${device.id}`, undefined, other)).statusCode).toBe(404);
    expect(
      (await console_('GET', `/devicelogsnort/${device.id}`, undefined, other)).statusCode,
    ).toBe(404);
    expect((await console_('GET', `/deviceupdate/${device.id}`, undefined, other)).statusCode).toBe(
      404,
    );
    expect(
      (
        await console_(
          'POST',
          '/devices/',
          { name: 'x', password: 'device-secret-1234', policy_id: policyId },
          other,
        )
      ).statusCode,
    ).toBe(404);
    await console_('POST', '/users/', {
      email: 'v@example.com',
      password: 'Viewer#2026',
      role: 'Viewer',
    });
    const viewer = await signIn(server.app, 'v@example.com', 'Viewer#2026');
    expect((await console_('GET', '/devices/', undefined, viewer)).statusCode).toBe(200);
    expect((await console_('DELETE', `/devices/${device.id}`, undefined, viewer)).statusCode).toBe(
      403,
    );
  });

  it('pushes new versions to a connected agent within seconds of a console change', async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/agent/events`, {
      headers: agent,
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    if (!response.body) throw new Error('no event stream body');
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const nextEvent = async () => {
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        const at = received.indexOf('event: versions');
        const end = at >= 0 ? received.indexOf('\n\n', at) : -1;
        if (end >= 0) {
          const chunk = received.slice(at, end);
          received = received.slice(end + 2);
          return JSON.parse(chunk.split('data: ')[1] ?? '{}') as { policy_version: number };
        }
        const { value, done } = await reader.read();
        if (done) break;
        received += decoder.decode(value);
      }
      throw new Error(`no versions event; got ${received}`);
    };
    const initial = await nextEvent();
    await console_('PUT', `/policies/${policyId}`, { overrides: [] });
    const pushed = await nextEvent();
    expect(pushed.policy_version).toBe(initial.policy_version + 1);
    controller.abort();
  });
  it('tells consoles of a heartbeat that comes within a second of the one before', async () => {
    const events = await consoleEvents(server.app, admin);
    // Past the notice interval of earlier beats, so that the first beat is told at once.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const beat = (cpu: number) =>
      asAgent('POST', 'heartbeat', {
        state: 'running',
        metrics: { ...METRICS, cpu },
        local: { config_version: 1, policy_version: 1 },
        agent_version: '0.1.0',
        last_error: null,
      });
    expect((await beat(71)).statusCode).toBe(200);
    expect((await beat(72)).statusCode).toBe(200);
    expect(await events.count('devices', 2)).toBe(2);
    // The second beat is told too: at the end of the second, or, when its write (it was
    // answered before it) ended after that notice, by one more notice its own write scheduled.
    // Either way a notice follows the write, and the console re-reading then shows its sample.
    if ((await view()).metrics?.cpu !== 72) expect(await events.count('devices', 3)).toBe(3);
    events.close();
    expect((await view()).metrics).toMatchObject({ cpu: 72 });
  });
  it('tells consoles of an applied version at once, even right after a routine notice', async () => {
    const events = await consoleEvents(server.app, admin);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const local = (await view()) as { config_version_local: number; policy_version_local: number };
    // A routine notice goes out at once; the apply report comes 50 ms later, inside its second.
    await asAgent('POST', 'heartbeat', {
      state: 'running',
      metrics: { ...METRICS, cpu: 5 },
      local: { config_version: 1, policy_version: 1 },
      agent_version: '0.1.0',
      last_error: null,
    });
    expect(await events.count('devices', 1)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reported = Date.now();
    await asAgent('POST', 'applied', {
      config_version: local.config_version_local,
      policy_version: local.policy_version_local,
      ok: true,
    });
    expect(await events.count('devices', 2)).toBe(2);
    const latency = Date.now() - reported;
    events.close();
    // Told at once, not at the end of the routine notices' second.
    expect(latency).toBeLessThan(500);
  });
});

import type { AddressInfo } from 'node:net';
import type { DeploymentDetail, PendingDeployments } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  until,
  type TestServer,
} from '../../test/harness.js';
import { runDeployGates } from './deployments.service.js';

const PASSWORD = 'device-secret-1234';
const SECOND = 1000;

describe('staged deploys with a canary', () => {
  let server: TestServer;
  let admin: { authorization: string };
  let port: number;
  let profile: number;
  let homeNet = 0;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as AddressInfo).port;
    profile = (
      await call('POST', '/deviceconfigurationprofiles/', {
        name: 'sensors',
        variables: { HOME_NET: net() },
      })
    ).json<{ id: number }>().id;
    await call('PUT', '/organization/settings', {
      deploy_mode: 'staged',
      canary_wait_minutes: 1,
      canary_heartbeat_grace_seconds: 30,
    });
  });
  afterAll(() => server.close());

  function net() {
    homeNet += 1;
    return `[10.${homeNet}.0.0/16]`;
  }
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    api(server.app, { method, url, headers: admin, ...(payload ? { payload } : {}) });
  /** A profile change: every device on the profile gets a new config version to deploy. */
  async function save(): Promise<string> {
    const value = net();
    const saved = await call('PUT', `/deviceconfigurationprofiles/${profile}`, {
      variables: { HOME_NET: value },
    });
    expect(saved.statusCode).toBe(200);
    return value;
  }

  /** A new device on the profile, signed in as its agent, that reported its first bundle applied. */
  async function sensor(name: string) {
    const created = await call('POST', '/devices/', {
      name,
      password: PASSWORD,
      profile_id: profile,
    });
    const id = created.json<{ id: number }>().id;
    const login = await api(server.app, {
      method: 'POST',
      url: '/agent/login',
      payload: { device_id: id, password: PASSWORD, protocol: 1 },
    });
    const headers = {
      authorization: `Bearer ${login.json<{ access_token: string }>().access_token}`,
    };
    const agent = {
      id,
      headers,
      bundle: async () => {
        const response = await api(server.app, { method: 'GET', url: '/agent/bundle', headers });
        return response.json<{ config_version: number; variables: Record<string, string> }>();
      },
      beat: async (configVersion: number | null) => {
        const response = await api(server.app, {
          method: 'POST',
          url: '/agent/heartbeat',
          headers,
          payload: {
            state: 'running',
            local: { config_version: configVersion, policy_version: 0 },
            agent_version: '0.1.0',
          },
        });
        return response.json<{ remote: { config_version: number }; pull: boolean }>();
      },
    };
    const first = await agent.bundle();
    await agent.beat(first.config_version);
    return agent;
  }

  async function pushStream(headers: { authorization: string }) {
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/agent/events`, {
      headers,
      signal: controller.signal,
    });
    if (!response.body) throw new Error('no event stream');
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
    const events: { config_version: number }[] = [];
    let text = '';
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
        for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n')) {
          const data = /^data: (.*)$/m.exec(text.slice(0, end))?.[1];
          if (data) events.push(JSON.parse(data) as { config_version: number });
          text = text.slice(end + 2);
        }
      }
    })().catch(() => undefined);
    await until('the first versions event', () => (events.length > 0 ? true : undefined));
    return { events, close: () => controller.abort() };
  }

  const deploy = (payload: object) => call('POST', '/deployments/', payload);
  const pending = async () =>
    (await call('GET', '/deployments/pending')).json<PendingDeployments>().data;

  it('keeps a staged save from agents until it is deployed', async () => {
    const device = await sensor('edge-staged');
    const before = await device.bundle();
    const stream = await pushStream(device.headers);
    const value = await save();

    // The save is pending for the device; the agent is still served what was deployed.
    const waiting = (await pending()).find((row) => row.device_id === device.id);
    expect(waiting).toMatchObject({
      config_changed: true,
      deployed: { config_version: before.config_version },
      saved: { config_version: before.config_version + 1 },
    });
    // What a deploy would send it, against what it runs.
    const diff = await call('GET', `/devices/${device.id}/pending-deploy`);
    expect(diff.json()).toMatchObject({
      id: device.id,
      name: 'edge-staged',
      deployed: { config_version: before.config_version },
      saved: { config_version: before.config_version + 1 },
      variables: {
        added: [],
        removed: [],
        changed: [{ name: 'HOME_NET', old: before.variables.HOME_NET, new: value }],
      },
      policy: null,
      nftables_diff: null,
      routes_diff: null,
    });
    expect(await device.beat(before.config_version)).toMatchObject({
      remote: { config_version: before.config_version },
      pull: false,
    });
    expect(await device.bundle()).toEqual(before);
    // The console says the device runs what it is served: nothing waits for the agent.
    expect((await call('GET', `/devices/${device.id}`)).json()).toMatchObject({
      config_version_remote: before.config_version,
      update_pending: false,
    });
    // A flush pushes the versions the device is served now; no event came before it.
    await call('GET', `/deviceupdate/${device.id}`);
    await until('the flush to be pushed', () => (stream.events.length > 1 ? true : undefined));
    expect(stream.events.map((e) => e.config_version)).toEqual([
      before.config_version,
      before.config_version,
    ]);

    const deployed = await deploy({ device_ids: [device.id] });
    expect(deployed.statusCode).toBe(201);
    expect(deployed.json<DeploymentDetail>()).toMatchObject({
      status: 'deployed',
      devices: [{ device_id: device.id, to: { config_version: before.config_version + 1 } }],
    });
    await until('the deploy to be pushed', () => (stream.events.length > 2 ? true : undefined));
    expect(stream.events[2]?.config_version).toBe(before.config_version + 1);
    expect((await device.bundle()).variables.HOME_NET).toBe(value);
    expect((await pending()).some((row) => row.device_id === device.id)).toBe(false);
    const [record] = await server.db.query<{ action: string; actor_name: string }>(
      `SELECT action, actor_name FROM audit_log
        WHERE object_type = 'deployment' AND object_id = $1`,
      [String(deployed.json<DeploymentDetail>().id)],
    );
    expect(record).toEqual({ action: 'deploy', actor_name: ADMIN_EMAIL });
    stream.close();
  });

  it('rolls a canary that stops sending heartbeats back, saying why, and leaves the rest', async () => {
    const canary = await sensor('edge-canary-silent');
    const rest = await sensor('edge-rest-1');
    const old = await canary.bundle();
    await save();
    const created = await deploy({
      device_ids: [canary.id, rest.id],
      canary: { device_ids: [canary.id] },
    });
    expect(created.statusCode).toBe(201);
    const deployment = created.json<DeploymentDetail>();
    expect(deployment.status).toBe('canary');
    expect((await canary.bundle()).config_version).toBe(old.config_version + 1);
    expect((await rest.bundle()).config_version).toBe(old.config_version);

    const moved = new Date(deployment.devices.find((d) => d.canary)?.moved_at ?? '');
    // Within the grace the gate waits; past it, with no heartbeat since, it fails.
    expect(await runDeployGates(server.db, new Date(moved.getTime() + 20 * SECOND))).toContainEqual(
      {
        id: deployment.id,
        decision: 'wait',
      },
    );
    expect(await runDeployGates(server.db, new Date(moved.getTime() + 31 * SECOND))).toContainEqual(
      {
        id: deployment.id,
        decision: 'fail',
      },
    );

    const after = (await call('GET', `/deployments/${deployment.id}`)).json<DeploymentDetail>();
    expect(after).toMatchObject({
      status: 'rolled_back',
      failure: {
        device_id: canary.id,
        device_name: 'edge-canary-silent',
        condition: 'heartbeat_lost',
      },
    });
    expect(after.devices).toEqual([
      expect.objectContaining({ device_id: canary.id, rolled_back: true }),
      expect.objectContaining({ device_id: rest.id, moved_at: null, rolled_back: false }),
    ]);
    expect(await canary.bundle()).toEqual(old);
    expect((await rest.bundle()).config_version).toBe(old.config_version);
    const [record] = await server.db.query<{
      action: string;
      actor_kind: string;
      actor_name: string;
    }>(
      `SELECT action, actor_kind, actor_name FROM audit_log
        WHERE object_type = 'deployment' AND object_id = $1 ORDER BY id DESC LIMIT 1`,
      [String(deployment.id)],
    );
    expect(record).toEqual({ action: 'rollback', actor_kind: 'server', actor_name: 'deploy gate' });
  });

  /** Gates below run a minute ahead of the heartbeats the test sends: no grace runs out. */
  const longGrace = () =>
    call('PUT', '/organization/settings', { canary_heartbeat_grace_seconds: 3600 });

  it('rolls back a canary that never applies the change', async () => {
    await longGrace();
    const canary = await sensor('edge-canary-stuck');
    const old = await canary.bundle();
    await save();
    const deployment = (
      await deploy({ device_ids: [canary.id], canary: { device_ids: [canary.id] } })
    ).json<DeploymentDetail>();
    const moved = new Date(deployment.devices[0]?.moved_at ?? '');
    await canary.beat(old.config_version);
    const due = new Date(Math.max(moved.getTime() + 60 * SECOND, Date.now()));
    await runDeployGates(server.db, due);
    const after = (await call('GET', `/deployments/${deployment.id}`)).json<DeploymentDetail>();
    expect(after).toMatchObject({ status: 'rolled_back', failure: { condition: 'not_applied' } });
    expect(await canary.bundle()).toEqual(old);
  });

  it('rolls back a canary whose alert rate rises past the factor', async () => {
    await longGrace();
    const canary = await sensor('edge-canary-noisy');
    await save();
    const deployment = (
      await deploy({ device_ids: [canary.id], canary: { device_ids: [canary.id] } })
    ).json<DeploymentDetail>();
    const moved = new Date(deployment.devices[0]?.moved_at ?? '');
    const applied = await canary.bundle();
    await canary.beat(applied.config_version);
    // Quiet before the deploy; ten alerts since: over 3 times "at least one" per window.
    const alerts = await api(server.app, {
      method: 'POST',
      url: '/agent/alerts',
      headers: canary.headers,
      payload: {
        seq: 1,
        events: Array.from({ length: 10 }, (_, n) => ({
          event_type: 'alert',
          timestamp: new Date(moved.getTime() + 1000 + n).toISOString(),
          src_ip: '203.0.113.7',
          src_port: 40000 + n,
          dest_ip: '10.0.0.2',
          dest_port: 22,
          proto: 'TCP',
          alert: { gid: 1, signature_id: 9_100_001, rev: 1, signature: 'noisy', severity: 2 },
        })),
      },
    });
    expect(alerts.statusCode).toBe(200);
    await runDeployGates(server.db, new Date(moved.getTime() + 60 * SECOND + 1));
    const after = (await call('GET', `/deployments/${deployment.id}`)).json<DeploymentDetail>();
    expect(after).toMatchObject({
      status: 'rolled_back',
      failure: { device_name: 'edge-canary-noisy', condition: 'alert_rate' },
    });
  });

  it('deploys the rest once a canary applied the change and kept reporting', async () => {
    await longGrace();
    const canary = await sensor('edge-canary-good');
    const rest = await sensor('edge-rest-2');
    const old = await rest.bundle();
    const value = await save();
    const deployment = (
      await deploy({ all: true, canary: { device_ids: [canary.id] } })
    ).json<DeploymentDetail>();
    expect(deployment.devices.map((d) => d.device_id)).toContain(rest.id);
    const moved = new Date(deployment.devices.find((d) => d.canary)?.moved_at ?? '');
    const applied = await canary.bundle();
    expect(applied.variables.HOME_NET).toBe(value);
    await canary.beat(applied.config_version);
    expect((await rest.bundle()).config_version).toBe(old.config_version);

    const decided = await runDeployGates(server.db, new Date(moved.getTime() + 60 * SECOND + 1));
    expect(decided).toContainEqual({ id: deployment.id, decision: 'pass' });
    const after = (await call('GET', `/deployments/${deployment.id}`)).json<DeploymentDetail>();
    expect(after.status).toBe('deployed');
    expect((await rest.bundle()).variables.HOME_NET).toBe(value);
    const list = (await call('GET', '/deployments/')).json<{
      data: { id: number; status: string }[];
    }>();
    expect(list.data[0]).toMatchObject({ id: deployment.id, status: 'deployed' });
  });

  it('refuses a canary outside the deploy and a device another canary holds', async () => {
    const held = await sensor('edge-held');
    const other = await sensor('edge-other');
    await save();
    const first = await deploy({ device_ids: [held.id], canary: { device_ids: [held.id] } });
    expect(first.statusCode).toBe(201);
    // The canary has nothing left to deploy: it cannot be a canary of this one.
    const outside = await deploy({ device_ids: [other.id], canary: { device_ids: [held.id] } });
    expect(outside.statusCode).toBe(422);
    expect(outside.body).toContain('canary.device_ids');
    // A newer save is pending for it, but its gate has not decided yet.
    await save();
    const busy = await deploy({ device_ids: [held.id, other.id] });
    expect(busy.statusCode).toBe(409);
    expect(busy.json<{ msg: string }>().msg).toContain('edge-held');
    // Applying at once again waits for the gate.
    const immediate = await call('PUT', '/organization/settings', { deploy_mode: 'immediate' });
    expect(immediate.statusCode).toBe(409);
  });
});

describe('deploys in an organization that applies saves at once', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('has nothing pending and refuses a deploy', async () => {
    const admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const pending = await api(server.app, {
      method: 'GET',
      url: '/deployments/pending',
      headers: admin,
    });
    expect(pending.json()).toEqual({ deploy_mode: 'immediate', data: [] });
    const refused = await api(server.app, {
      method: 'POST',
      url: '/deployments/',
      headers: admin,
      payload: { all: true },
    });
    expect(refused.statusCode).toBe(409);
  });
});

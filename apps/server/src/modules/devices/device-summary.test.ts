import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceSummary } from '@palisade/contract';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { signInOtherOrganization } from '../../test/fixtures.js';

describe('the dashboard device summary', () => {
  let server: TestServer;
  let adminA: { authorization: string };
  let adminB: { authorization: string };
  const ids: Record<string, number> = {};

  const create = async (headers: { authorization: string }, name: string) => {
    const created = await api(server.app, {
      method: 'POST',
      url: '/devices/',
      headers,
      payload: { name, password: `${name}-secret-123456` },
    });
    expect(created.statusCode).toBe(201);
    ids[name] = created.json<{ id: number }>().id;
  };
  /** The device as its agent would leave it: seen `secondsAgo`, its versions applied. */
  const seenInSync = (name: string, secondsAgo = 0) =>
    server.db.query(
      `UPDATE devices SET last_seen = now() - make_interval(secs => $2),
              config_version_local = config_version, policy_version_local = 0
        WHERE id = $1`,
      [ids[name], secondsAgo],
    );
  const summary = async (headers: { authorization: string }, query = '') => {
    const response = await api(server.app, { url: `/devices/summary${query}`, headers });
    expect(response.statusCode).toBe(200);
    return response.json<DeviceSummary>();
  };
  const named = (figure: DeviceSummary['problems']['offline']) => figure.devices.map((d) => d.name);

  beforeAll(async () => {
    server = await startTestServer();
    adminA = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    adminB = await signInOtherOrganization(server.app);
    for (const name of [
      'tampered',
      'calm',
      'gone-long',
      'gone-lately',
      'never',
      'failing',
      'dropping',
    ])
      await create(adminA, name);
    await create(adminB, 'b-only');

    await seenInSync('calm');
    // Its agent found the firewall changed outside Palisade an hour ago and re-applied it.
    await seenInSync('tampered');
    const drift = (name: string, reappliedAt: string) =>
      server.db.query('UPDATE devices SET firewall_drift = $2::jsonb WHERE id = $1', [
        ids[name],
        JSON.stringify({
          loaded_sha256: 'a'.repeat(64),
          applied_sha256: 'a'.repeat(64),
          drift: false,
          reapplied_at: reappliedAt,
        }),
      ]);
    await drift('tampered', new Date(Date.now() - 3600_000).toISOString());
    // Re-applied long ago and as applied since: nothing to show on the dashboard.
    await drift('calm', '2020-01-01T00:00:00.000Z');
    // Offline: seen more than three heartbeat intervals ago (or never: 'never').
    await seenInSync('gone-long', 7200);
    await seenInSync('gone-lately', 600);
    await seenInSync('failing');
    await server.db.query("UPDATE devices SET last_error = 'suricata -T failed' WHERE id = $1", [
      ids['failing'],
    ]);
    await seenInSync('dropping');
    const sensor = {
      time: '2026-11-28T08:00:00.000000+0000',
      kernel_packets: 100_000,
      kernel_drops: 7_500,
      drop_percent: 7.5,
      alerts_per_min: 3,
      decoder_bytes: 60_000_000,
      flow_memuse: 7_340_032,
      rules_loaded: 35_671,
      rules_failed: 0,
      last_reload: null,
    };
    await server.db.query('UPDATE devices SET sensor = $2::jsonb WHERE id = $1', [
      ids['dropping'],
      JSON.stringify(sensor),
    ]);
  });
  afterAll(() => server.close());

  it("counts the organization's problems as the list's filters find them", async () => {
    const seen = await summary(adminA);
    expect(seen.total).toBe(7);
    expect(seen.problems.offline.count).toBe(3);
    // Most recently seen first, never seen last.
    expect(named(seen.problems.offline)).toEqual(['gone-lately', 'gone-long', 'never']);
    expect(seen.problems.pending).toEqual({
      count: 1,
      devices: [{ id: ids['never'], name: 'never' }],
    });
    expect(named(seen.problems.errors)).toEqual(['failing']);
    expect(named(seen.problems.unhealthy)).toEqual(['dropping']);
    expect(named(seen.problems.firewall_drift)).toEqual(['tampered']);

    // Each count is the Devices list's total under the dashboard link's filter.
    const listed = async (filter: string) =>
      (
        await api(server.app, {
          url: `/devices/?limit=1&filter=${encodeURIComponent(filter)}`,
          headers: adminA,
        })
      ).json<{ recordsTotal: number }>().recordsTotal;
    expect(await listed('online:false')).toBe(seen.problems.offline.count);
    expect(await listed('update_pending:true')).toBe(seen.problems.pending.count);
    expect(await listed('error:true')).toBe(seen.problems.errors.count);
    expect(await listed('health:degraded')).toBe(seen.problems.unhealthy.count);
    expect(await listed('firewall_drift:true')).toBe(seen.problems.firewall_drift.count);
  });

  it('names a bounded number of devices, newest first, and counts them all', async () => {
    const ofA = Object.entries(ids).flatMap(([name, id]) => (name === 'b-only' ? [] : [id]));
    const flush = (on: boolean) =>
      server.db.query('UPDATE devices SET flush_requested = $1 WHERE id = ANY($2)', [on, ofA]);
    await flush(true);
    const two = await summary(adminA, '?named=2');
    expect(two.problems.pending.count).toBe(7);
    expect(named(two.problems.pending)).toEqual(['dropping', 'failing']);
    expect(named(two.problems.offline)).toEqual(['gone-lately', 'gone-long']);
    expect((await summary(adminA, '?named=0')).problems.pending).toEqual({ count: 7, devices: [] });
    const tooMany = await api(server.app, { url: '/devices/summary?named=21', headers: adminA });
    expect(tooMany.statusCode).toBe(422);
    await flush(false);
  });

  it("never counts or names another organization's devices", async () => {
    const seen = await summary(adminB);
    expect(seen).toEqual({
      total: 1,
      problems: {
        offline: { count: 1, devices: [{ id: ids['b-only'], name: 'b-only' }] },
        pending: { count: 1, devices: [{ id: ids['b-only'], name: 'b-only' }] },
        errors: { count: 0, devices: [] },
        unhealthy: { count: 0, devices: [] },
        firewall_drift: { count: 0, devices: [] },
      },
    });
    const ofA = await summary(adminA);
    const namesOfA = Object.values(ofA.problems).flatMap((f) => f.devices.map((d) => d.name));
    expect(namesOfA).not.toContain('b-only');
    expect(ofA.total).toBe(7);
  });

  it('answers only a signed-in user', async () => {
    expect((await api(server.app, { url: '/devices/summary' })).statusCode).toBe(401);
  });
});

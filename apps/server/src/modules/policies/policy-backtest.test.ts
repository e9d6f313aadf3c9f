import type { BacktestResult, Threshold } from '@palisade/contract';
import { BlockList } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { recountAlertRollups, signInOtherOrganization } from '../../test/fixtures.js';
import { createPolicyBacktestService } from './policy-backtest.service.js';
import { simulateThreshold, type CountingThreshold } from './threshold-simulation.js';

type Headers = { authorization: string };

interface Generated {
  device_id: number;
  sid: number;
  micros: bigint;
  src: string;
  dest: string;
}

const HOUR = 3_600_000_000n;
/** A small random source, seeded, so a failure can be run again as it was. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** `micros` as timestamptz text with all six fractional digits. */
const asTimestamp = (micros: bigint) => {
  const iso = new Date(Number(micros / 1000n)).toISOString();
  return `${iso.slice(0, 19)}.${String(micros % 1_000_000n).padStart(6, '0')}Z`;
};

/** What a tuning change would have removed (issue 20 item 1), on both databases. */
describe('POST /policies/{id}/backtest', () => {
  let server: TestServer;
  let admin: Headers;
  let policyId: number;
  let running: number[];
  let elsewhere: number;
  let disabledRuleId: number;

  const post = (
    id: number,
    body: { days: number; thresholds?: Threshold[]; overrides?: object[] },
    headers: Headers = admin,
  ) => api(server.app, { method: 'POST', url: `/policies/${id}/backtest`, headers, payload: body });

  const store = async (alerts: Generated[]) => {
    for (let i = 0; i < alerts.length; i += 500) {
      const batch = alerts.slice(i, i + 500);
      await server.db.query(
        `INSERT INTO device_alerts (org_id, device_id, time, gid, sid, msg, severity, src_ip, dest_ip, event)
         SELECT d.org_id, a.device_id, a.time, 1, a.sid, 'BT ' || a.sid, 2, a.src, a.dest, '{}'::jsonb
           FROM unnest($1::int[], $2::timestamptz[], $3::bigint[], $4::text[], $5::text[])
                  AS a(device_id, time, sid, src, dest)
           JOIN devices d ON d.id = a.device_id`,
        [
          batch.map((a) => a.device_id),
          batch.map((a) => asTimestamp(a.micros)),
          batch.map((a) => a.sid),
          batch.map((a) => a.src),
          batch.map((a) => a.dest),
        ],
      );
    }
    await recountAlertRollups(server.db);
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const created = async (url: string, payload: object) => {
      const response = await api(server.app, { method: 'POST', url, headers: admin, payload });
      if (response.statusCode !== 201) throw new Error(`${url}: ${response.body}`);
      return response.json<{ id: number }>().id;
    };
    const profile = await created('/deviceconfigurationprofiles/', {
      name: 'lab',
      variables: { HOME_NET: '[10.1.0.0/16]', INNER: '[$HOME_NET,!10.1.9.9]' },
    });
    policyId = await created('/policies/', { name: 'edge' });
    running = [
      await created('/devices/', {
        name: 'bt-1',
        password: 'sensor-secret-2026',
        profile_id: profile,
        policy_id: policyId,
      }),
      await created('/devices/', {
        name: 'bt-2',
        password: 'sensor-secret-2026',
        policy_id: policyId,
      }),
    ];
    elsewhere = await created('/devices/', { name: 'bt-other', password: 'sensor-secret-2026' });
    disabledRuleId = await created('/rules/', {
      text: 'alert tcp any any -> any any (msg:"BT 3000001"; sid:3000001; rev:1;)',
    });
  }, 120_000);
  afterAll(() => server.close());

  it('counts what a suppression by $HOME_NET removes, per device and signature', async () => {
    const now = BigInt(Date.now()) * 1000n;
    const at = (hoursAgo: number) => now - BigInt(hoursAgo) * HOUR;
    const [first = 0, second = 0] = running;
    await store([
      // bt-1 (HOME_NET 10.1.0.0/16): three from inside, two from outside.
      ...[1, 2, 3].map((h) => ({
        device_id: first,
        sid: 3_000_010,
        micros: at(h),
        src: '10.1.0.5',
        dest: '192.0.2.1',
      })),
      ...[1, 2].map((h) => ({
        device_id: first,
        sid: 3_000_010,
        micros: at(h),
        src: '192.0.2.7',
        dest: '10.1.0.5',
      })),
      // bt-2 has no profile: $HOME_NET is not set there, so it suppresses nothing.
      { device_id: second, sid: 3_000_010, micros: at(1), src: '10.1.0.5', dest: '192.0.2.1' },
      // Older than the window, and on a device of another policy: never counted.
      { device_id: first, sid: 3_000_010, micros: at(24 * 3), src: '10.1.0.5', dest: '' },
      { device_id: elsewhere, sid: 3_000_010, micros: at(1), src: '10.1.0.5', dest: '' },
    ]);
    const response = await post(policyId, {
      days: 2,
      thresholds: [{ kind: 'suppress', gid: 1, sid: 3_000_010, track: 'by_src', ip: '$HOME_NET' }],
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<BacktestResult>();
    expect(result).toMatchObject({
      days: 2,
      removed: 3,
      total: 6,
      by_device: [
        { device_id: first, device: 'bt-1', removed: 3, total: 5 },
        { device_id: second, device: 'bt-2', removed: 0, total: 1 },
      ],
      by_signature: [
        { gid: 1, sid: 3_000_010, msg: 'BT 3000010', removed: 3, total: 6, share: 0.5 },
      ],
      unresolved_variables: ['$HOME_NET'],
    });
    await server.db.query('DELETE FROM device_alerts WHERE sid = 3000010');
    await recountAlertRollups(server.db);
  });

  it('tells how many of what goes fired under an earlier version of the policy', async () => {
    const version = (
      await api(server.app, { method: 'GET', url: `/policies/${policyId}`, headers: admin })
    ).json<{ version: number }>().version;
    const [first = 0] = running;
    const insert = (sid: number, src: string, policy: number | null, policyVersion: number) =>
      server.db.query(
        `INSERT INTO device_alerts (org_id, device_id, time, gid, sid, msg, src_ip, event,
                                    policy_id, policy_version)
         SELECT org_id, id, now() - interval '1 hour', 1, $2::bigint, 'BT ' || $2::bigint, $3, '{}', $4, $5
           FROM devices WHERE id = $1`,
        [first, sid, src, policy, policyVersion],
      );
    // Removed whole: two raised under the version before, one under this one, one whose
    // device ran another policy then (not this policy's earlier version).
    await insert(3_000_020, '10.1.0.5', policyId, version - 1);
    await insert(3_000_020, '10.1.0.5', policyId, version - 1);
    await insert(3_000_020, '10.1.0.5', policyId, version);
    await insert(3_000_020, '10.1.0.5', policyId + 1000, version - 1);
    // Replayed by address: of the earlier two, only the one from the address goes.
    await insert(3_000_021, '10.1.0.5', policyId, version - 1);
    await insert(3_000_021, '192.0.2.7', policyId, version - 1);
    await insert(3_000_021, '10.1.0.5', policyId, version);
    await recountAlertRollups(server.db);
    const response = await post(policyId, {
      days: 1,
      thresholds: [
        { kind: 'suppress', gid: 1, sid: 3_000_020 },
        { kind: 'suppress', gid: 1, sid: 3_000_021, track: 'by_src', ip: '10.1.0.5' },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<BacktestResult>()).toMatchObject({
      removed: 6,
      removed_earlier: 3,
      policy_version: version,
    });
    await server.db.query('DELETE FROM device_alerts WHERE sid IN (3000020, 3000021)');
    await recountAlertRollups(server.db);
  });

  it('agrees with a brute-force count over generated alerts', async () => {
    const next = random(20_261_128);
    const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)] as T;
    const now = BigInt(Date.now()) * 1000n;
    const devices = [...running, elsewhere];
    const sources = ['10.1.0.5', '10.1.9.9', '10.1.7.1', '192.0.2.7', '198.51.100.3'];
    const dests = ['192.0.2.1', '192.0.2.9', '203.0.113.4', '10.1.0.5'];
    const generated: Generated[] = Array.from({ length: 3_000 }, () => {
      // Up to 9 days old, a fifth within two hours of the 7-day window's start (its partial
      // first hour and day are counted apart from its whole days); none within two minutes of
      // it, where the server's clock, read a little later, may set the start.
      const start = 7 * 24 * 3600 * 1e6;
      let age = next() < 0.2 ? start + (next() * 4 - 2) * 3600 * 1e6 : next() * 9 * 24 * 3600 * 1e6;
      if (Math.abs(age - start) < 120 * 1e6) age += 240 * 1e6;
      const ageMicros = BigInt(Math.floor(age));
      return {
        device_id: pick(devices),
        sid: 3_000_001 + Math.floor(next() * 6),
        micros: now - ageMicros,
        src: pick(sources),
        dest: pick(dests),
      };
    });
    await store(generated);

    const thresholds: Threshold[] = [
      { kind: 'suppress', gid: 1, sid: 3_000_002 },
      {
        kind: 'suppress',
        gid: 1,
        sid: 3_000_003,
        track: 'by_dst',
        ip: '[192.0.2.0/24,!192.0.2.9]',
      },
      { kind: 'suppress', gid: 1, sid: 3_000_004, track: 'by_src', ip: '$INNER' },
      {
        kind: 'threshold',
        gid: 1,
        sid: 3_000_004,
        type: 'limit',
        track: 'by_src',
        count: 2,
        seconds: 3_600,
      },
      {
        kind: 'event_filter',
        gid: 1,
        sid: 3_000_005,
        type: 'both',
        track: 'by_rule',
        count: 3,
        seconds: 600,
      },
      {
        kind: 'rate_filter',
        gid: 1,
        sid: 3_000_006,
        track: 'by_src',
        count: 1,
        seconds: 1,
        new_action: 'drop',
        timeout: 60,
      },
    ];
    const response = await post(policyId, {
      days: 7,
      thresholds,
      overrides: [{ rule_id: disabledRuleId, action: 'disable' }],
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<BacktestResult>();

    // The brute force: every alert on its own against each entry, in time order per device.
    const windowStart = now - 7n * 24n * HOUR;
    const inWindow = generated
      .filter((a) => running.includes(a.device_id) && a.micros >= windowStart)
      .sort((a, b) => (a.micros < b.micros ? -1 : a.micros > b.micros ? 1 : 0));
    const inner = new BlockList();
    inner.addSubnet('10.1.0.0', 16, 'ipv4');
    const outerDest = new BlockList();
    outerDest.addSubnet('192.0.2.0', 24, 'ipv4');
    const firstDevice = running[0];
    const suppressed = (a: Generated) =>
      a.sid === 3_000_001 ||
      a.sid === 3_000_002 ||
      (a.sid === 3_000_003 && outerDest.check(a.dest) && a.dest !== '192.0.2.9') ||
      // $INNER is set on bt-1's profile only.
      (a.sid === 3_000_004 &&
        a.device_id === firstDevice &&
        inner.check(a.src) &&
        a.src !== '10.1.9.9');
    const gone = new Set<Generated>(inWindow.filter(suppressed));
    const counted: [number, CountingThreshold][] = [
      [3_000_004, thresholds[3] as CountingThreshold],
      [3_000_005, thresholds[4] as CountingThreshold],
    ];
    for (const deviceId of running)
      for (const [sid, threshold] of counted) {
        const stream = inWindow.filter(
          (a) => a.device_id === deviceId && a.sid === sid && !gone.has(a),
        );
        const raised = simulateThreshold(
          stream.map((a) => ({ timeMicros: Number(a.micros), src: a.src, dest: a.dest })),
          threshold,
        );
        stream.forEach((a, i) => {
          if (!raised[i]) gone.add(a);
        });
      }

    expect(result.total).toBe(inWindow.length);
    expect(result.removed).toBe(gone.size);
    expect(result.removed).toBeGreaterThan(0);
    for (const device of result.by_device) {
      const mine = inWindow.filter((a) => a.device_id === device.device_id);
      expect(device).toMatchObject({
        total: mine.length,
        removed: mine.filter((a) => gone.has(a)).length,
      });
    }
    const expectedSignatures = [...new Set(inWindow.map((a) => a.sid))]
      .map((sid) => {
        const all = inWindow.filter((a) => a.sid === sid);
        const removed = all.filter((a) => gone.has(a)).length;
        return { sid, removed, total: all.length, share: removed / all.length };
      })
      .filter((s) => s.removed > 0)
      .sort((a, b) => b.removed - a.removed || a.sid - b.sid);
    expect(
      result.by_signature.map(({ sid, removed, total, share }) => ({ sid, removed, total, share })),
    ).toEqual(expectedSignatures);
    // The rate_filter changes actions only: its signature loses nothing.
    expect(result.by_signature.some((s) => s.sid === 3_000_006)).toBe(false);
    expect(result.unresolved_variables).toEqual(['$INNER']);
  });

  it('refuses, naming the window, a replay of more alerts than it holds in memory', async () => {
    const [me] = await server.db.query<{ id: number; org_id: number }>(
      'SELECT id, org_id FROM users WHERE email = $1',
      [ADMIN_EMAIL],
    );
    const principal = {
      userId: me?.id ?? 0,
      orgId: me?.org_id ?? 0,
      role: 'Administrator' as const,
      email: ADMIN_EMAIL,
    };
    const small = createPolicyBacktestService(server.db, { maxReplayed: 5 });
    const limit = (sid: number) => ({
      days: 7,
      overrides: [],
      thresholds: [
        {
          kind: 'threshold' as const,
          gid: 1,
          sid,
          type: 'limit' as const,
          track: 'by_src' as const,
          count: 1,
          seconds: 60,
        },
      ],
    });
    // The brute-force test's alerts: hundreds of sid 3000004 in the window.
    await expect(small.backtest(principal, policyId, limit(3_000_004))).rejects.toThrow(
      /more than 5 alerts in 7 days: backtest a shorter window/,
    );
    // A signature with no alerts replays nothing and is answered.
    await expect(small.backtest(principal, policyId, limit(3_999_999))).resolves.toMatchObject({
      removed: 0,
    });
  });

  it('is answered only within the organization, and refuses what is not a change', async () => {
    const other = await signInOtherOrganization(server.app);
    expect((await post(policyId, { days: 7 }, other)).statusCode).toBe(404);
    expect((await post(999_999, { days: 7 })).statusCode).toBe(404);
    for (const days of [0, 91, 1.5]) expect((await post(policyId, { days })).statusCode).toBe(422);
    const unknownKind = await post(policyId, {
      days: 7,
      thresholds: [{ kind: 'threshold', gid: 1, sid: 1 }],
    });
    expect(unknownKind.statusCode).toBe(422);
  });
});

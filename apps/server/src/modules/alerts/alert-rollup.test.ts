import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generator } from '../../../../../testing/samples.mjs';
import type { SqlParam } from '../../db/client.js';
import { epochMicrosSql, isoFromEpochMicros } from '../../db/microsecond-time.js';
import { applyRetention } from '../../plugins/retention.js';
import {
  alertRollupRepository,
  rollupAnswers,
  type SignatureGroupRow,
} from './alert-rollup.repository.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { enrolDevice } from '../../test/fixtures.js';

const HOUR_MS = 3_600_000;
const DEVICES = 3;
const ALERTS = 3000;
/** Spread over four days around now: day partitions and the default partition alike. */
const SPAN_MS = 4 * 24 * HOUR_MS;

interface Group {
  gid: number | null;
  sid: number | null;
  severity: number | null;
  count: number;
  devices: number;
  first_seen: string;
  last_seen: string;
}
type Filters = Partial<
  Record<'since' | 'until' | 'device_id' | 'severity' | 'signature', string>
> & {
  acknowledged?: 'false';
};

const presentGroup = ({
  msg: _msg,
  first_seen_us,
  last_seen_us,
  ...row
}: SignatureGroupRow): Group => ({
  ...row,
  sid: row.sid === null ? null : Number(row.sid),
  first_seen: isoFromEpochMicros(first_seen_us),
  last_seen: isoFromEpochMicros(last_seen_us),
});
const byKey = (a: Group, b: Group) =>
  (a.gid ?? -1) - (b.gid ?? -1) || (a.sid ?? -1) - (b.sid ?? -1);

describe('alert rollup', () => {
  let server: TestServer;
  let admin: { authorization: string };
  let orgId: number;
  const deviceIds: number[] = [];
  const random = generator(16);
  const now = Date.now();
  const start = now - 3 * 24 * HOUR_MS;

  /** The grouping counted directly over device_alerts, as it was before the rollup. */
  async function directGroups(filters: Filters): Promise<Group[]> {
    const params: SqlParam[] = [orgId];
    const where = ['org_id = $1'];
    const add = (condition: string, value: SqlParam) => {
      params.push(value);
      where.push(condition.replace('?', `$${params.length}`));
    };
    if (filters.since) add('time >= ?::timestamptz', filters.since);
    if (filters.until) add('time < ?::timestamptz', filters.until);
    if (filters.device_id) add('device_id = ?', Number(filters.device_id));
    if (filters.severity) add('severity <= ?', Number(filters.severity));
    if (filters.signature) add('sid = ?', Number(filters.signature));
    if (filters.acknowledged === 'false') where.push('acknowledged_at IS NULL');
    const rows = await server.db.query<SignatureGroupRow>(
      `SELECT gid, sid::int, min(severity) AS severity, count(*)::int AS count,
              count(DISTINCT device_id)::int AS devices, NULL AS msg,
              ${epochMicrosSql('min(time)')} AS first_seen_us, ${epochMicrosSql('max(time)')} AS last_seen_us
         FROM device_alerts WHERE ${where.join(' AND ')} GROUP BY gid, sid`,
      params,
    );
    return rows.map(presentGroup).sort(byKey);
  }

  /** Each device's alerts per UTC day as ingest keeps them, and as counted from the alerts. */
  async function deviceDays() {
    const kept = await server.db.query<{ key: string }>(
      `SELECT device_id || ' ' || day || ' ' || count AS key FROM alert_device_days
        WHERE count > 0 ORDER BY 1`,
    );
    const counted = await server.db.query<{ key: string }>(
      `SELECT device_id || ' ' || (time AT TIME ZONE 'UTC')::date || ' ' || count(*) AS key
         FROM device_alerts GROUP BY device_id, (time AT TIME ZONE 'UTC')::date ORDER BY 1`,
    );
    return { kept: kept.map((r) => r.key), counted: counted.map((r) => r.key) };
  }

  async function apiGroups(filters: Filters): Promise<Group[]> {
    const query = new URLSearchParams({ limit: '1000', ...filters });
    const response = await api(server.app, {
      method: 'GET',
      url: `/alerts/groups?${query.toString()}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    return response
      .json<{ data: (Group & { msg: string | null })[] }>()
      .data.map(({ msg: _msg, ...group }) => group)
      .sort(byKey);
  }

  /** A random instant of the data's span, sometimes on a whole hour, sometimes with microseconds. */
  function randomTime(): string {
    const at = start - HOUR_MS + Math.floor(random.next() * (SPAN_MS + 2 * HOUR_MS));
    const kind = random.int(0, 2);
    if (kind === 0) return new Date(Math.floor(at / HOUR_MS) * HOUR_MS).toISOString();
    const iso = new Date(at).toISOString();
    return kind === 1 ? iso : iso.replace('Z', `${random.int(0, 999)}Z`.padStart(4, '0'));
  }

  function randomWindow(): Filters {
    const a = randomTime();
    const b =
      random.next() < 0.3
        ? new Date(Date.parse(a) + random.int(1, 90) * 60_000).toISOString()
        : randomTime();
    const [since, until] = a < b ? [a, b] : [b, a];
    const shape = random.int(0, 3);
    if (shape === 0) return { since };
    if (shape === 1) return { until };
    if (shape === 2) return {};
    return { since, until };
  }

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const [org] = await server.db.query<{ id: number }>('SELECT id FROM organizations LIMIT 1');
    orgId = org?.id ?? 1;
    // Day partitions around now; older days fall to the default partition.
    await applyRetention(server.db, { alertRetentionDays: 30, metricRetentionDays: 30 });
    const agents: { authorization: string }[] = [];
    for (let d = 0; d < DEVICES; d += 1) {
      const { id, agent } = await enrolDevice(server.app, admin, { name: `rollup-${d}` });
      deviceIds.push(id);
      agents.push(agent);
    }
    const batches = agents.map(() => [] as Record<string, unknown>[][]);
    for (let i = 0; i < ALERTS; i += 1) {
      const sid = random.skewed([2001, 2002, 2003, 2004, 2005, 2006, 2007, 2008]);
      const event = {
        timestamp: new Date(start + Math.floor(random.next() * SPAN_MS)).toISOString(),
        event_type: 'alert',
        src_ip: `198.51.100.${random.int(1, 20)}`,
        dest_ip: '10.0.0.1',
        proto: 'TCP',
        alert: {
          // Some without a gid, id or severity: the rollup keeps those groups too.
          ...(random.next() < 0.05 ? {} : { gid: random.pick([1, 1, 1, 3]) }),
          ...(random.next() < 0.03 ? {} : { signature_id: sid }),
          ...(random.next() < 0.05 ? {} : { severity: (sid % 3) + random.int(1, 2) }),
          signature: `rollup signature ${sid}`,
          rev: 1,
          action: 'allowed',
        },
      };
      const device = random.int(0, DEVICES - 1);
      const list = batches[device] ?? [];
      const last = list.at(-1);
      if (last && last.length < random.int(1, 200)) last.push(event);
      else list.push([event]);
    }
    for (const [d, list] of batches.entries()) {
      for (const [i, events] of list.entries()) {
        const response = await api(server.app, {
          method: 'POST',
          url: '/agent/alerts',
          headers: agents[d] ?? {},
          payload: { seq: i + 1, events },
        });
        expect(response.statusCode).toBe(200);
      }
    }
    // Triage state does not change the grouping unless it filters on it.
    const ids = await server.db.query<{ id: number }>(
      'SELECT id FROM device_alerts ORDER BY id LIMIT 300',
    );
    const ack = await api(server.app, {
      method: 'POST',
      url: '/alerts/ack',
      headers: admin,
      payload: { ids: ids.map((r) => Number(r.id)), acknowledged: true },
    });
    expect(ack.statusCode).toBeLessThan(300);
  });
  afterAll(() => server.close());

  it('groups exactly as a direct count, over random windows and filters', async () => {
    expect((await directGroups({})).reduce((n, g) => n + g.count, 0)).toBe(ALERTS);
    const days = await deviceDays();
    expect(days.kept.length).toBeGreaterThan(DEVICES);
    expect(days.kept).toEqual(days.counted);
    for (let run = 0; run < 60; run += 1) {
      const filters: Filters = randomWindow();
      if (random.next() < 0.3) filters.device_id = String(random.pick(deviceIds));
      if (random.next() < 0.2) filters.severity = String(random.int(1, 3));
      if (random.next() < 0.2) filters.signature = String(random.int(2001, 2004));
      // Not a rollup column: read from device_alerts, and still the same answer.
      if (random.next() < 0.1) filters.acknowledged = 'false';
      const direct = await directGroups(filters);
      expect({ filters, groups: await apiGroups(filters) }).toEqual({ filters, groups: direct });
      // The API reads the rollup only while it is compact: here it is always read.
      const resolved = {
        ...filters,
        device_id: filters.device_id === undefined ? undefined : Number(filters.device_id),
        severity: filters.severity === undefined ? undefined : Number(filters.severity),
      };
      if (rollupAnswers(resolved)) {
        const rolled = await alertRollupRepository.groups(server.db, orgId, resolved, 1000);
        expect({ filters, groups: rolled.map(presentGroup).sort(byKey) }).toEqual({
          filters,
          groups: direct,
        });
      }
    }
  });

  it('drops and trims rollup and day rows with their alerts, and a device with its own', async () => {
    // Yesterday and older past retention: the oldest days go from the default, then a day partition.
    await applyRetention(
      server.db,
      { alertRetentionDays: 1, metricRetentionDays: 30 },
      new Date(now),
    );
    // A day later yesterday's partition goes whole (today's alerts stay).
    await applyRetention(
      server.db,
      { alertRetentionDays: 1, metricRetentionDays: 30 },
      new Date(now + 24 * HOUR_MS),
    );
    const after = await directGroups({});
    expect(after.reduce((n, g) => n + g.count, 0)).toBeLessThan(ALERTS);
    expect(await apiGroups({})).toEqual(after);
    const days = await deviceDays();
    expect(days.kept).toEqual(days.counted);

    const removed = await api(server.app, {
      method: 'DELETE',
      url: `/devices/${deviceIds[0]}`,
      headers: admin,
    });
    expect(removed.statusCode).toBeLessThan(300);
    expect(await apiGroups({})).toEqual(await directGroups({}));
    const [left] = await server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM alert_rollup WHERE device_id = $1',
      [deviceIds[0] ?? 0],
    );
    expect(left?.n).toBe(0);
    const daysLeft = await deviceDays();
    expect(daysLeft.kept).toEqual(daysLeft.counted);
    expect(daysLeft.kept.some((key) => key.startsWith(`${deviceIds[0]} `))).toBe(false);
  });
});

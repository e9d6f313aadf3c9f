import { matchesMissing, matchesSearch, parseSearch } from '@palisade/search-syntax';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention } from '../../plugins/retention.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

// The signature text search reads the signature catalogue first and filters the alerts by
// signature id (alertsRepository.signatureMatch, alert-filters.ts): it must find exactly the
// alerts a test of every alert's own message finds, whether a signature's texts all match,
// some match (a message changed with a revision) or none does, for alerts without a signature
// id or without a message, and with a catalogue that still lists texts no alert carries.

/** gid, sid, msg of the generated alerts, each used for several alerts. */
const SIGNATURES: [number | null, number | null, string | null][] = [
  [1, 2000001, 'ET TROJAN Zeus check-in'],
  [1, 2000001, 'ET TROJAN Zeus beacon'], // the same sid under a second text
  [1, 2000002, 'ET POLICY curl User-Agent'],
  [1, 2000003, 'ET SCAN Nmap Scripting Engine'],
  [1, 2000004, 'ET SCAN 50%_off "quoted" scan'],
  [3, 2000004, 'GPL SCAN ping'], // the same sid under another gid
  [1, null, 'ET TROJAN no sid'],
  [1, 2000005, null], // an alert without a message
  [null, null, null],
  [1, 2000006, 'et trojan lower case'],
];

const SEARCHES = [
  '"ET TROJAN"',
  '"Zeus check-in"',
  'trojan',
  'TROJAN -"Zeus beacon"',
  '-"Zeus beacon"',
  '-scan',
  '-"ET SCAN" -trojan',
  'bench -"ET POLICY"',
  '"50%_off"',
  '"\\"quoted\\""',
  'zeus OR nmap',
  '"Zeus beacon" OR -"ET"',
  '-nothing-matches-this',
  'nothing-matches-this',
];

describe('alert signature text search', () => {
  let server: TestServer;
  let admin: { authorization: string };
  let alerts: { id: number; msg: string | null }[];

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const [org] = await server.db.query<{ id: number }>('SELECT id FROM organizations LIMIT 1');
    const orgId = org?.id ?? 1;
    const [device] = await server.db.query<{ id: number }>(
      `INSERT INTO devices (org_id, name, password_hash) VALUES ($1, 'search-1', 'x') RETURNING id`,
      [orgId],
    );
    await applyRetention(server.db, { alertRetentionDays: 90, metricRetentionDays: 90 });
    await server.db.query(
      `INSERT INTO device_alerts (org_id, device_id, time, gid, sid, msg, event)
       SELECT $1, $2, now() - n * interval '1 minute', s.gid, s.sid, s.msg, '{}'::jsonb
         FROM generate_series(1, 3) AS n,
              json_to_recordset($3::json) AS s(gid int, sid bigint, msg text)`,
      [
        orgId,
        device?.id ?? 0,
        JSON.stringify(SIGNATURES.map(([gid, sid, msg]) => ({ gid, sid, msg }))),
      ],
    );
    // The catalogue as ingest keeps it, and a text of a signature no alert carries any more.
    await server.db.query(
      `INSERT INTO alert_signatures (org_id, gid, sid, msg)
       SELECT DISTINCT org_id, gid, sid, msg FROM device_alerts WHERE msg IS NOT NULL
       UNION ALL SELECT $1, 1, 2000003, 'ET POLICY retired text'`,
      [orgId],
    );
    alerts = await server.db.query<{ id: number; msg: string | null }>(
      'SELECT id::int, msg FROM device_alerts WHERE org_id = $1',
      [orgId],
    );
    expect(alerts).toHaveLength(SIGNATURES.length * 3);
  });
  afterAll(() => server.close());

  it.each(SEARCHES)('%s finds exactly the alerts whose message matches', async (search) => {
    const query = parseSearch(search);
    const expected = alerts
      .filter((a) => (a.msg === null ? matchesMissing(query) : matchesSearch([a.msg], query)))
      .map((a) => a.id)
      .sort((x, y) => x - y);
    const response = await api(server.app, {
      method: 'GET',
      url: `/alerts/?${new URLSearchParams({ limit: '1000', signature: search }).toString()}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ data: { id: number }[]; recordsTotal: number }>();
    expect(body.data.map((a) => a.id).sort((x, y) => x - y)).toEqual(expected);
    expect(body.recordsTotal).toBe(expected.length);
  });
});

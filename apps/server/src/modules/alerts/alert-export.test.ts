import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

type Headers = { authorization: string };

/** Export of the filtered alerts (issue 19 item 3), read by keyset past one chunk of 1,000. */
describe('alert export', () => {
  let server: TestServer;
  let admin: Headers;
  let orgId: number;

  const download = (query: string, headers: Headers = admin) =>
    api(server.app, { method: 'GET', url: `/alerts/export?${query}`, headers });
  const storedIds = async (where = 'TRUE') =>
    (
      await server.db.query<{ id: string }>(
        `SELECT id::text FROM device_alerts WHERE org_id = $1 AND ${where} ORDER BY time DESC, device_alerts.id DESC`,
        [orgId],
      )
    ).map((r) => Number(r.id));

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await api(server.app, {
      method: 'POST',
      url: '/users/open',
      payload: { email: 'o@b.example', password: 'Other#2026', organization: 'B' },
    });
    const orgs = await server.db.query<{ id: number; name: string }>(
      'SELECT id, name FROM organizations ORDER BY id',
    );
    orgId = orgs.find((o) => o.name !== 'B')?.id ?? 0;
    for (const org of orgs) {
      const [device] = await server.db.query<{ id: number }>(
        `INSERT INTO devices (org_id, name, password_hash) VALUES ($1, 'export', 'x') RETURNING id`,
        [org.id],
      );
      // 2,500 alerts a minute apart, several in the same second to test the keyset's tie-break.
      await server.db.query(
        `INSERT INTO device_alerts (org_id, device_id, time, sid, msg, severity, src_ip, event)
         SELECT $1, $2, $3::timestamptz + (n / 3) * interval '1 minute', 2000001,
                'ET export ' || n, 1 + (n % 3), '10.0.0.' || (n % 4), '{}'::jsonb
           FROM generate_series(1, 2500) AS n`,
        [org.id, device?.id, '2030-01-01T00:00:00Z'],
      );
    }
    // Text from a sensor that a spreadsheet would run as a formula.
    await server.db.query(
      `UPDATE device_alerts SET msg = '=HYPERLINK("http://x.example","a, b")', src_ip = '-1+1'
        WHERE id = (SELECT max(id) FROM device_alerts WHERE org_id = $1)`,
      [orgId],
    );
  });
  afterAll(() => server.close());

  it('writes every matching alert once as CSV, newest first, formulas defused', async () => {
    const response = await download('format=csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain('alerts.csv');
    const lines = response.body.split('\r\n');
    expect(lines.at(-1)).toBe('');
    const [header, ...rows] = lines.slice(0, -1);
    expect(header?.split(',').slice(0, 4)).toEqual(['id', 'time', 'device_id', 'device']);
    // Another organization's 2,500 alerts are not among them.
    expect(rows.map((line) => Number(line.split(',')[0]))).toEqual(await storedIds());
    const formula = rows.find((line) => line.includes('HYPERLINK'));
    expect(formula).toContain(`"'=HYPERLINK(""http://x.example"",""a, b"")"`);
    expect(formula).toContain(",'-1+1,");
  });

  it('writes NDJSON of the filter, one alert a line', async () => {
    const response = await download('format=ndjson&severity=1&src_ip=10.0.0.3');
    expect(response.headers['content-type']).toContain('application/x-ndjson');
    const alerts = response.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; severity: number; starred: boolean });
    expect(alerts.map((a) => a.id)).toEqual(
      await storedIds(`severity <= 1 AND src_ip = '10.0.0.3'`),
    );
    expect(alerts[0]).toMatchObject({ severity: 1, starred: false, src_ip: '10.0.0.3' });
  });

  it('answers an unknown format or a bad filter with a 422 naming it', async () => {
    const format = await download('format=xlsx');
    expect(format.statusCode).toBe(422);
    expect(format.body).toContain('format');
    const severity = await download('severity=high');
    expect(severity.statusCode).toBe(422);
    expect(severity.body).toContain('severity');
  });
});

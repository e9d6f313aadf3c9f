import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eveAlerts } from '../../test/corpus.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { enrolDevice } from '../../test/fixtures.js';

type Headers = { authorization: string };
type Event = Record<string, unknown>;
interface AlertAck {
  ack: number;
  rejected: { index: number; reason: string }[];
}

/**
 * Real eve.json alerts (most of them HTTP), or the project's sample alerts without the corpus;
 * each is given its own flow id to tell them apart.
 */
const corpus = [
  ...eveAlerts('mauz88__Suricata_Detection__eve.json'),
  ...eveAlerts('nicoaller__suricata-log-analyzer__eve.json').slice(0, 17),
];
let nextFlow = 1;
const withFlow = (event: Event): Event => ({ ...event, flow_id: nextFlow++ });
const httpOf = (event: Event) => (event['http'] ?? {}) as Event;
const alertOf = (event: Event) => (event['alert'] ?? {}) as Event;

describe('alert ingest, event by event', () => {
  let server: TestServer;
  let admin: Headers;
  let agent: Headers;
  let deviceId: number;

  const postAlerts = async (seq: number, events: unknown[]) => {
    const response = await api(server.app, {
      method: 'POST',
      url: '/agent/alerts',
      headers: agent,
      payload: { seq, events },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AlertAck>();
  };
  const stored = () =>
    server.db.query<{ flow_id: number; msg: string | null; event: Event }>(
      'SELECT flow_id, msg, event FROM device_alerts WHERE device_id = $1 ORDER BY flow_id',
      [deviceId],
    );
  const rejectedCount = async () =>
    (await api(server.app, { method: 'GET', url: `/devices/${deviceId}`, headers: admin })).json<{
      alerts_rejected: number;
    }>().alerts_rejected;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    ({ id: deviceId, agent } = await enrolDevice(server.app, admin, { name: 'sensor-nul' }));
  });
  afterAll(() => server.close());

  it('stores every valid event of a batch, NUL and lone surrogates escaped, and lists the others', async () => {
    // The batch below places its bad events among the first 60 valid ones.
    expect(corpus.length).toBeGreaterThanOrEqual(60);
    const valid = corpus.map(withFlow);
    const http = corpus.find((event) => typeof httpOf(event)['url'] === 'string') as Event;
    expect(http, 'an HTTP alert with a URL to put NUL bytes into').toBeDefined();
    // Suricata writes NUL bytes of the traffic into the URL (as \u0000 in eve.json).
    const nul = withFlow({
      ...http,
      http: { ...httpOf(http), url: '/cgi-bin/x.cgi?\0\0id=1' },
    });
    const surrogate = withFlow({
      ...http,
      alert: { ...alertOf(http), signature: 'ET WEB odd \ud800 bytes' },
      http: { ...httpOf(http), http_user_agent: 'agent\udfff/1.0' },
    });
    const noTimestamp = withFlow(http);
    delete noTimestamp['timestamp'];
    const batch: unknown[] = [
      ...valid.slice(0, 30),
      nul,
      'not an event',
      ...valid.slice(30, 60),
      noTimestamp,
      surrogate,
      withFlow({ ...http, event_type: 'flow' }),
      [http],
      ...valid.slice(60),
    ];

    const answer = await postAlerts(1, batch);

    expect(answer.ack).toBe(1);
    expect(answer.rejected).toEqual([
      { index: 31, reason: 'not a JSON object' },
      { index: 62, reason: 'timestamp missing or not a date' },
      { index: 64, reason: 'event_type is not "alert"' },
      { index: 65, reason: 'not a JSON object' },
    ]);
    const rows = await stored();
    expect(rows).toHaveLength(corpus.length + 2);
    expect(rows.map((row) => row.flow_id)).toEqual(
      [...valid, nul, surrogate]
        .map((event) => event['flow_id'])
        .sort((a, b) => Number(a) - Number(b)),
    );
    const byFlow = new Map(rows.map((row) => [row.flow_id, row]));
    expect(httpOf(byFlow.get(nul['flow_id'] as number)?.event ?? {})['url']).toBe(
      '/cgi-bin/x.cgi?\\u0000\\u0000id=1',
    );
    const odd = byFlow.get(surrogate['flow_id'] as number);
    expect(odd?.msg).toBe('ET WEB odd \\ud800 bytes');
    expect(httpOf(odd?.event ?? {})['http_user_agent']).toBe('agent\\udfff/1.0');
    // A valid event is stored as it was sent.
    const first = valid[0] as Event;
    expect(byFlow.get(first['flow_id'] as number)?.event).toEqual(first);
    expect(await rejectedCount()).toBe(4);
  });

  it('judges a batch once: a retry is acknowledged without storing or counting it again', async () => {
    const before = (await stored()).length;
    const retried = await postAlerts(1, ['still not an event', withFlow(corpus[0] as Event)]);
    expect(retried).toEqual({ ack: 1, rejected: [] });
    expect(await stored()).toHaveLength(before);
    expect(await rejectedCount()).toBe(4);
  });

  it('keeps storing later batches, also one whose events are all refused', async () => {
    const before = (await stored()).length;
    expect(await postAlerts(2, [null, 42])).toEqual({
      ack: 2,
      rejected: [
        { index: 0, reason: 'not a JSON object' },
        { index: 1, reason: 'not a JSON object' },
      ],
    });
    const later = corpus.slice(0, 5).map(withFlow);
    // Fields the columns cannot take are left empty; the event is stored whole.
    const odd = {
      ...corpus[1],
      flow_id: '9223372036854775808',
      src_port: 'eighty',
      alert: { ...alertOf(corpus[1] as Event), signature_id: 1.5, rev: 2 ** 40 },
    };
    expect(await postAlerts(3, [...later, odd])).toEqual({ ack: 3, rejected: [] });
    expect(await stored()).toHaveLength(before + 6);
    const [row] = await server.db.query<Record<string, unknown>>(
      `SELECT flow_id, src_port, sid, rev, event->>'flow_id' AS flow_text
         FROM device_alerts WHERE device_id = $1 AND flow_id IS NULL`,
      [deviceId],
    );
    expect(row).toEqual({
      flow_id: null,
      src_port: null,
      sid: null,
      rev: null,
      flow_text: '9223372036854775808',
    });
    expect(await rejectedCount()).toBe(6);
  });

  it('notes the signature of every stored alert, however the batch was loaded', async () => {
    // The catalogue is kept with each batch, on PGlite's COPY (replica role) as on PostgreSQL's.
    const signature = 'PALISADE ingest signature note';
    const event = { ...corpus[0], alert: { ...alertOf(corpus[0] as Event), signature } };
    expect(await postAlerts(4, [withFlow(event)])).toEqual({ ack: 4, rejected: [] });
    const notes = await server.db.query<{ msg: string }>(
      'SELECT msg FROM alert_signatures WHERE msg = $1',
      [signature],
    );
    expect(notes).toEqual([{ msg: signature }]);
  });

  it('keeps the microseconds of an alert and an empty category, on every read', async () => {
    const signature = 'PALISADE microsecond alert';
    const at = (stamp: string, category: string) =>
      withFlow({
        ...corpus[0],
        timestamp: stamp,
        alert: { ...alertOf(corpus[0] as Event), signature, signature_id: 9_100_001, category },
      });
    // Within one millisecond: only the microseconds order them.
    const events = [
      at('2031-02-03T04:05:06.123401+0000', ''),
      at('2031-02-03T06:05:06.123456+0200', 'Misc activity'),
    ];
    expect(await postAlerts(5, events)).toEqual({ ack: 5, rejected: [] });

    const page = await api(server.app, {
      method: 'GET',
      url: '/alerts/?signature=9100001&limit=1',
      headers: admin,
    });
    const first = page.json<{
      data: { id: number; time: string; category: string | null }[];
      next_cursor: string;
    }>();
    expect(first.data).toMatchObject([
      { time: '2031-02-03T04:05:06.123456Z', category: 'Misc activity' },
    ]);
    const next = await api(server.app, {
      method: 'GET',
      url: `/alerts/?signature=9100001&limit=1&before=${first.next_cursor}`,
      headers: admin,
    });
    const older = next.json<{ data: { id: number; time: string; category: string | null }[] }>();
    expect(older.data).toMatchObject([{ time: '2031-02-03T04:05:06.123401Z', category: '' }]);
    const detail = await api(server.app, {
      method: 'GET',
      url: `/alerts/${older.data[0]?.id}`,
      headers: admin,
    });
    expect(detail.json()).toMatchObject({ time: '2031-02-03T04:05:06.123401Z', category: '' });
    const groups = await api(server.app, {
      method: 'GET',
      url: '/alerts/groups?signature=9100001',
      headers: admin,
    });
    expect(groups.json<{ data: unknown[] }>().data).toMatchObject([
      { first_seen: '2031-02-03T04:05:06.123401Z', last_seen: '2031-02-03T04:05:06.123456Z' },
    ]);
    const onDevice = await api(server.app, {
      method: 'GET',
      url: `/devicelogsnort/${deviceId}`,
      headers: admin,
    });
    expect(
      onDevice
        .json<{ data: { sid: number; time: string; category: string | null }[] }>()
        .data.filter((alert) => alert.sid === 9_100_001),
    ).toEqual([
      expect.objectContaining({ time: '2031-02-03T04:05:06.123456Z', category: 'Misc activity' }),
      expect.objectContaining({ time: '2031-02-03T04:05:06.123401Z', category: '' }),
    ]);
  });

  it("shows an alert's event as the sensor wrote it, keys in the sensor's order", async () => {
    const original = corpus[0] as Event;
    const sent = withFlow({
      ...original,
      alert: { ...alertOf(original), signature_id: 9_100_002, signature: 'PALISADE key order' },
    });
    expect(await postAlerts(6, [sent])).toEqual({ ack: 6, rejected: [] });
    const page = await api(server.app, {
      method: 'GET',
      url: '/alerts/?signature=9100002',
      headers: admin,
    });
    const [listed] = page.json<{ data: { id: number }[] }>().data;
    const detail = await api(server.app, {
      method: 'GET',
      url: `/alerts/${listed?.id}`,
      headers: admin,
    });
    const { event } = detail.json<{ event: Event }>();
    expect(event).toEqual(sent);
    // jsonb would sort them (shortest first): Suricata's order puts timestamp and flow_id first.
    expect(Object.keys(event)).toEqual(Object.keys(sent));
    expect(Object.keys(alertOf(event))).toEqual(Object.keys(alertOf(sent)));
  });

  it('stores an agent log line holding NUL, escaped, instead of failing its batch', async () => {
    const lines = [{ time: new Date().toISOString(), level: 'warn', msg: 'read /tmp/a\0b' }];
    const answer = await api(server.app, {
      method: 'POST',
      url: '/agent/logs',
      headers: agent,
      payload: { seq: 1, lines },
    });
    expect(answer.json()).toEqual({ ack: 1 });
    const log = await api(server.app, {
      method: 'GET',
      url: `/devicelog/${deviceId}`,
      headers: admin,
    });
    expect(log.json<{ data: { msg: string }[] }>().data.map((l) => l.msg)).toEqual([
      'read /tmp/a\\u0000b',
    ]);
  });
});

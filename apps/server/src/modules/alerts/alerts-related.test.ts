import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { enrolDevice, policyFromRules } from '../../test/fixtures.js';
import { PAYLOAD_CAP } from '../agent/eve-alerts.js';

type Headers = { authorization: string };
interface Brief {
  id: number;
  sid: number;
  src_ip: string;
  dest_ip: string;
  src_port: number | null;
  proto?: string;
}

/** Beyond 2^53: a flow id that a JSON number would round (Suricata's are 64-bit). */
const FLOW = '1234567890123456789';
/** "GET / HTTP/1.1\r\n" as Suricata logs a packet's payload. */
const PAYLOAD = Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n').toString('base64');

const event = (options: {
  minute: number;
  sid: number;
  src: string;
  dest: string;
  flow?: string;
  srcPort?: number;
  proto?: string;
  extra?: Record<string, unknown>;
}) => ({
  timestamp: `2026-05-01T10:${String(options.minute).padStart(2, '0')}:00.000001+0000`,
  event_type: 'alert',
  ...(options.flow === undefined ? {} : { flow_id: options.flow }),
  src_ip: options.src,
  src_port: options.srcPort ?? 40000,
  dest_ip: options.dest,
  dest_port: 80,
  proto: options.proto ?? 'TCP',
  alert: {
    action: 'allowed',
    gid: 1,
    signature_id: options.sid,
    rev: 1,
    signature: `signature ${options.sid}`,
    category: '',
    severity: 2,
  },
  ...options.extra,
});

describe('alert pivots and evidence', () => {
  let server: TestServer;
  let admin: Headers;
  let ids: Map<number, number>;

  const call = (url: string) => api(server.app, { method: 'GET', url, headers: admin });
  const list = async (query: string) =>
    (await call(`/alerts/?${query}`)).json<{ data: Brief[] }>().data;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const policyId = await policyFromRules(
      server.app,
      admin,
      'web.rules',
      'alert tcp any any -> any 80 (msg:"signature 1001"; reference:cve,2021-44228; reference:url,example.com/x; sid:1001; rev:1;)\n',
      'Web watch',
    );
    const { agent } = await enrolDevice(server.app, admin, {
      name: 'edge-1',
      policy_id: policyId,
    });
    // sid = a label per event, so the assertions can name them.
    const events = [
      event({
        minute: 0,
        sid: 1001,
        src: '10.0.0.5',
        dest: '192.0.2.9',
        flow: FLOW,
        extra: { payload: PAYLOAD, payload_printable: 'GET / HTTP/1.1..Host: x....' },
      }),
      event({ minute: 1, sid: 1002, src: '10.0.0.5', dest: '192.0.2.9', flow: FLOW }),
      // The answer: same pair, other direction, another flow, 10 minutes later.
      event({ minute: 10, sid: 1003, src: '192.0.2.9', dest: '10.0.0.5', srcPort: 80, flow: '77' }),
      // Same pair, but 40 minutes later: outside the default ±15 minutes.
      event({ minute: 40, sid: 1004, src: '10.0.0.5', dest: '192.0.2.9', flow: '78' }),
      // Another pair within the window.
      event({ minute: 2, sid: 1005, src: '10.0.0.6', dest: '192.0.2.9', proto: 'UDP' }),
      // A stream payload bigger than the cap.
      event({
        minute: 3,
        sid: 1006,
        src: '10.0.0.7',
        dest: '192.0.2.9',
        extra: {
          payload: 'A'.repeat(PAYLOAD_CAP * 2),
          payload_printable: 'x'.repeat(PAYLOAD_CAP * 2),
        },
      }),
    ];
    const stored = await api(server.app, {
      method: 'POST',
      url: '/agent/alerts',
      headers: agent,
      payload: { seq: 1, events },
    });
    expect(stored.statusCode).toBe(200);
    ids = new Map((await list('limit=100')).map((a) => [a.sid, a.id]));
  });
  afterAll(() => server.close());

  const idOf = (sid: number) => {
    const id = ids.get(sid);
    if (id === undefined) throw new Error(`alert ${sid} not stored`);
    return id;
  };

  it('excludes a value with not_*, keeping alerts that have none', async () => {
    const sids = async (query: string) => (await list(query)).map((a) => a.sid).sort();
    expect(await sids('not_src_ip=10.0.0.5')).toEqual([1003, 1005, 1006]);
    expect(await sids('not_proto=udp')).toEqual([1001, 1002, 1003, 1004, 1006]);
    expect(await sids('not_sid=1001&dest_ip=192.0.2.9')).toEqual([1002, 1004, 1005, 1006]);
    expect(await sids('not_src_port=80')).not.toContain(1003);
    const bad = await call('/alerts/?not_src_port=http');
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('not_src_port');
  });

  it('answers the detail with the payload as logged, the flow id and the policy', async () => {
    const detail = (await call(`/alerts/${idOf(1001)}`)).json<{
      event: Record<string, unknown>;
      flow_id: string;
      policy_name: string;
      rule: { text: string };
    }>();
    expect(detail.event['payload']).toBe(PAYLOAD);
    expect(detail.event['payload_printable']).toBe('GET / HTTP/1.1..Host: x....');
    expect(detail.flow_id).toBe(FLOW);
    expect(detail.policy_name).toBe('Web watch');
    expect(detail.rule.text).toContain('reference:cve,2021-44228');
  });

  it('keeps a payload over the cap cut to it, and says so', async () => {
    const { event: stored } = (await call(`/alerts/${idOf(1006)}`)).json<{
      event: Record<string, unknown>;
    }>();
    const bytes = Buffer.from(String(stored['payload']), 'base64').length;
    expect(bytes).toBeLessThanOrEqual(PAYLOAD_CAP);
    expect(bytes).toBeGreaterThan(PAYLOAD_CAP - 3);
    expect(String(stored['payload_printable'])).toHaveLength(PAYLOAD_CAP);
    expect(stored['payload_truncated']).toBe(true);
  });

  it('lists the same flow and the same host pair within the window', async () => {
    const response = await call(`/alerts/${idOf(1001)}/related`);
    expect(response.statusCode).toBe(200);
    const related = response.json<{ flow: Brief[]; host_pair: Brief[]; window: number }>();
    expect(related.flow.map((a) => a.sid)).toEqual([1002]);
    expect(related.host_pair.map((a) => a.sid)).toEqual([1003, 1002]);
    expect(related.window).toBe(15);
    const wide = (await call(`/alerts/${idOf(1001)}/related?window=60`)).json<{
      host_pair: Brief[];
    }>();
    expect(wide.host_pair.map((a) => a.sid)).toEqual([1004, 1003, 1002]);
  });

  it('answers 404 for an unknown alert and 422 for a bad window', async () => {
    expect((await call('/alerts/999999999/related')).statusCode).toBe(404);
    const bad = await call(`/alerts/${idOf(1001)}/related?window=0`);
    expect(bad.statusCode).toBe(422);
  });

  it('finds the flow through its index', async () => {
    // A handful of rows would be read whole anyway, and on so few the planner may take any
    // index: ask what the plan is for a device with thousands of flows (rolled back after).
    const plan = await server.db.transaction(async (tx) => {
      const [device] = await tx.query<{ id: number; org_id: number }>(
        'SELECT id, org_id FROM devices ORDER BY id LIMIT 1',
      );
      await tx.query(
        `INSERT INTO device_alerts (org_id, device_id, time, sid, flow_id, event)
         SELECT $1, $2, now() - g * interval '1 second', 1000 + g % 50, g, '{}'
           FROM generate_series(1, 5000) g`,
        [device?.org_id, device?.id],
      );
      await tx.query('ANALYZE device_alerts');
      await tx.query('SET LOCAL enable_seqscan = off');
      return tx.query<Record<string, string>>(
        `EXPLAIN SELECT id FROM device_alerts WHERE org_id = $1 AND device_id = $2 AND flow_id = 5`,
        [device?.org_id, device?.id],
      );
    });
    expect(plan.map((row) => Object.values(row).join(' ')).join('\n')).toMatch(
      /Index (Only )?Scan using \S*flow\S*/,
    );
  });
});

import type { Queryable } from '../../db/client.js';
import {
  alertWindowsRepository as repo,
  type PolicyVersion,
  type Signature,
} from './alert-windows.repository.js';

export type { PolicyVersion, Signature };

/** Each device's stored alerts since `since`, all signatures together. */
export const alertsPerDevice = (db: Queryable, orgId: number, deviceIds: number[], since: Date) =>
  repo.deviceTotals(db, orgId, deviceIds, since);

/**
 * The stored alerts of the signatures since `since`, counted per device and signature, and
 * how many of them fired under a version of `policy` before the one given.
 */
export const signatureAlertsPerDevice = (
  db: Queryable,
  orgId: number,
  since: Date,
  signatures: Signature[],
  policy: PolicyVersion,
) => repo.signatureTotals(db, orgId, since, signatures, policy);

/** One stored alert as a replay needs it (time in microseconds since the epoch). */
export interface WindowAlert {
  micros: number;
  id: number;
  src_ip: string | null;
  dest_ip: string | null;
  /** Fired under a version of the policy asked about before the one given. */
  earlier: boolean;
}

/** One device's stored alerts of one signature in the window, oldest first. */
export interface AlertStream {
  device_id: number;
  gid: number;
  sid: number;
  msg: string | null;
  alerts: WindowAlert[];
}

/**
 * The stored alerts of the signatures since `since`, as a stream per device and signature:
 * `count` alerts in all, and no streams when they are more than `limit` (the caller refuses).
 */
export async function alertStreams(
  db: Queryable,
  orgId: number,
  since: Date,
  signatures: Signature[],
  policy: PolicyVersion,
  limit: number,
): Promise<{ count: number; streams: AlertStream[] }> {
  const [columns, texts] = await Promise.all([
    repo.alertColumns(db, orgId, since, signatures, policy, limit + 1),
    repo.signatureTexts(db, orgId, signatures),
  ]);
  const count = columns?.n ?? 0;
  if (!columns || count === 0 || count > limit) return { count, streams: [] };
  const list = (text: string | null) => (text ?? '').split(',');
  const numbers = (text: string | null) => list(text).map(Number);
  const devices = numbers(columns.devices);
  const gids = numbers(columns.gids);
  const sids = numbers(columns.sids);
  const micros = numbers(columns.micros);
  const ids = numbers(columns.ids);
  const sources = list(columns.sources);
  const destinations = list(columns.destinations);
  const earlier = columns.earlier ?? '';
  const msgOf = new Map(texts.map((t) => [`${t.gid}:${t.sid}`, t.msg]));
  const streams = new Map<string, AlertStream>();
  for (let i = 0; i < count; i += 1) {
    const [device_id = 0, gid = 1, sid = 0] = [devices[i], gids[i], sids[i]];
    const key = `${device_id}|${gid}:${sid}`;
    let stream = streams.get(key);
    if (!stream) {
      stream = { device_id, gid, sid, msg: msgOf.get(`${gid}:${sid}`) ?? null, alerts: [] };
      streams.set(key, stream);
    }
    stream.alerts.push({
      micros: micros[i] ?? 0,
      id: ids[i] ?? 0,
      src_ip: sources[i] || null,
      dest_ip: destinations[i] || null,
      earlier: earlier[i] === '1',
    });
  }
  for (const { alerts } of streams.values())
    alerts.sort((a, b) => a.micros - b.micros || a.id - b.id);
  return { count, streams: [...streams.values()] };
}

/** A device's latest stored alerts (its alert log), newest first, at most `limit`. */
export const latestDeviceAlerts = (db: Queryable, deviceId: number, limit: number) =>
  repo.latestOfDevice(db, deviceId, limit);

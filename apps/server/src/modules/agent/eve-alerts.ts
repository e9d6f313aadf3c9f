import type { AlertRecord } from './agent.repository.js';

type Json = Record<string, unknown>;

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;
const int = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 2_147_483_647
    ? value
    : null;
/** Suricata's signature ids are unsigned 32-bit; anything else is not one (and 2^53 would not read back). */
const uint32 = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 4_294_967_295
    ? value
    : null;
const object = (value: unknown): Json =>
  typeof value === 'object' && value !== null ? (value as Json) : {};

/**
 * Reads the columns the console filters on out of an eve.json `alert` event; the whole event
 * is kept as well. Returns null for events that are not alerts.
 */
export function toAlertRecord(value: unknown, receivedAt: Date): AlertRecord | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const event = value as Json;
  if (event['event_type'] !== undefined && event['event_type'] !== 'alert') return null;
  const alert = object(event['alert']);
  if (Object.keys(alert).length === 0) return null;
  const stamp =
    typeof event['timestamp'] === 'string' ? Date.parse(normaliseOffset(event['timestamp'])) : NaN;
  const flowId = event['flow_id'];
  return {
    time: (Number.isNaN(stamp) ? receivedAt : new Date(stamp)).toISOString(),
    gid: int(alert['gid']),
    sid: uint32(alert['signature_id']),
    rev: int(alert['rev']),
    msg: text(alert['signature']),
    category: text(alert['category']),
    severity: int(alert['severity']),
    action: text(alert['action']),
    proto: text(event['proto']),
    appProto: text(event['app_proto']),
    srcIp: text(event['src_ip']),
    srcPort: int(event['src_port']),
    destIp: text(event['dest_ip']),
    destPort: int(event['dest_port']),
    // flow ids use all 64 bits; kept as text to the database so no precision is lost.
    flowId: typeof flowId === 'number' || typeof flowId === 'string' ? String(flowId) : null,
    event: JSON.stringify(event),
  };
}

/** Suricata writes `+0000`; Date.parse wants `+00:00`. */
function normaliseOffset(stamp: string): string {
  return stamp.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
}

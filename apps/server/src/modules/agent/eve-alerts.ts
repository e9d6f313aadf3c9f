import { isoFromEveTimestamp } from '../../db/microsecond-time.js';
import { storableJson, storableText } from '../../db/storable-text.js';
import type { AlertRecord } from './agent.repository.js';

type Json = Record<string, unknown>;

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? storableText(value) : null;
const int = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 2_147_483_647
    ? value
    : null;
/** Suricata's signature ids are unsigned 32-bit; anything else is not one (and 2^53 would not read back). */
const uint32 = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 4_294_967_295
    ? value
    : null;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Years a timestamptz column takes and an ISO string writes plainly (0001–9999). */
const EARLIEST = new Date(0).setUTCFullYear(1, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** A bigint column's range, as text (flow ids use all 64 bits; JSON numbers lose the low ones). */
const INT64_TEXT = /^-?\d{1,19}$/;
const INT64_MAX = 2n ** 63n - 1n;

/** What the server makes of one event of an alert batch: a row to store, or why not. */
export type AlertReading = { record: AlertRecord } | { reason: string };

/**
 * Reads the columns the console filters on out of an eve.json `alert` event; the whole event
 * is kept as well. What the database cannot hold (NUL, lone surrogates) is kept as its escape
 * text, and a field of the wrong type is left empty; an event that is not an alert, or whose
 * time is unknown, is refused with the reason.
 */
export function readAlert(value: unknown): AlertReading {
  if (!isObject(value)) return { reason: 'not a JSON object' };
  const event = value;
  if (event['event_type'] !== undefined && event['event_type'] !== 'alert') {
    return { reason: 'event_type is not "alert"' };
  }
  const alert = event['alert'];
  if (!isObject(alert) || Object.keys(alert).length === 0) return { reason: 'no alert object' };
  const time =
    typeof event['timestamp'] === 'string' ? isoFromEveTimestamp(event['timestamp']) : null;
  if (time === null) return { reason: 'timestamp missing or not a date' };
  if (time.millis < EARLIEST || time.millis > LATEST) return { reason: 'timestamp out of range' };
  let json: string;
  try {
    json = JSON.stringify(capPayload(event));
  } catch {
    return { reason: 'event cannot be written as JSON' };
  }
  return {
    record: {
      time: time.iso,
      gid: int(alert['gid']),
      sid: uint32(alert['signature_id']),
      rev: int(alert['rev']),
      msg: text(alert['signature']),
      // Suricata writes "" for a rule without classtype: kept as it came, not as unknown.
      category: typeof alert['category'] === 'string' ? storableText(alert['category']) : null,
      severity: int(alert['severity']),
      action: text(alert['action']),
      proto: text(event['proto']),
      appProto: text(event['app_proto']),
      srcIp: text(event['src_ip']),
      srcPort: int(event['src_port']),
      destIp: text(event['dest_ip']),
      destPort: int(event['dest_port']),
      flowId: flowId(event['flow_id']),
      event: storableJson(json),
    },
  };
}

/**
 * The packet or stream payload Suricata logs (`payload`, base64; `payload_printable`) is kept
 * with the event for the console's hex view, up to PAYLOAD_CAP bytes: a stream alert can carry
 * far more, and one event should not weigh megabytes. A cut payload says so in
 * `payload_truncated`.
 */
export const PAYLOAD_CAP = 16_384;
const BASE64_CAP = (PAYLOAD_CAP / 3) * 4 + (PAYLOAD_CAP % 3 === 0 ? 0 : 4);

function capPayload(event: Json): Json {
  const payload = event['payload'];
  const printable = event['payload_printable'];
  const longPayload = typeof payload === 'string' && payload.length > BASE64_CAP;
  const longPrintable = typeof printable === 'string' && printable.length > PAYLOAD_CAP;
  if (!longPayload && !longPrintable) return event;
  return {
    ...event,
    ...(longPayload && { payload: payload.slice(0, Math.floor(PAYLOAD_CAP / 3) * 4) }),
    ...(longPrintable && { payload_printable: printable.slice(0, PAYLOAD_CAP) }),
    payload_truncated: true,
  };
}

/** Kept as text to the database so that no precision is lost; null when out of a bigint's range. */
function flowId(value: unknown): string | null {
  const digits = typeof value === 'number' || typeof value === 'string' ? String(value) : null;
  if (digits === null || !INT64_TEXT.test(digits)) return null;
  // Up to 18 digits always fit; only a 19-digit id needs a closer look.
  if (digits.length < (digits.startsWith('-') ? 20 : 19)) return digits;
  const n = BigInt(digits);
  return n <= INT64_MAX && n >= -INT64_MAX - 1n ? digits : null;
}

// Alert times keep the microseconds Suricata writes: a JavaScript Date holds milliseconds, so
// they travel as text both ways. In: the ISO text with six fractional digits goes to the
// database as is. Out: the database gives microseconds since the epoch as text.

/** SQL for a timestamptz expression as microseconds since the epoch (text, exact). */
export const epochMicrosSql = (expression: string) =>
  `(extract(epoch FROM ${expression}) * 1000000)::bigint::text`;

/** `1700000000123456` → `2023-11-14T22:13:20.123456Z`. */
export function isoFromEpochMicros(micros: string): string {
  const value = BigInt(micros);
  let millis = value / 1000n;
  let rest = value % 1000n;
  if (rest < 0n) {
    // Before 1970: BigInt division truncates toward zero, a date floors.
    millis -= 1n;
    rest += 1000n;
  }
  return `${new Date(Number(millis)).toISOString().slice(0, -1)}${String(rest).padStart(3, '0')}Z`;
}

/**
 * An eve.json timestamp (`2024-05-01T10:11:12.123456+0000`) as UTC ISO text with six
 * fractional digits, or null when it is not a date. Digits past the sixth are dropped (what a
 * timestamptz cannot hold).
 */
export function isoFromEveTimestamp(stamp: string): { iso: string; millis: number } | null {
  return suricataTimestamp(stamp) ?? anyTimestamp(stamp);
}

/** Suricata's own form: the sensor's local time, six fractional digits and its UTC offset. */
const SURICATA_STAMP =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{6})([+-])(\d{2})(\d{2})$/;

/**
 * The form every Suricata event has, read without a Date parse: a quarter of the time per event
 * (0.3 µs against 1.2 µs here), on the ingest path that reads each alert's time. Only a valid
 * date of years 100–9999 with an offset of at most 23:59 is read here; anything else (hour 24,
 * 30 February, a two-digit year, which Date.UTC would put in the 1900s) goes the general way,
 * which decides as it always did.
 */
function suricataTimestamp(stamp: string): { iso: string; millis: number } | null {
  const fields = SURICATA_STAMP.exec(stamp);
  if (fields === null) return null;
  const year = Number(fields[1]);
  const month = Number(fields[2]);
  const day = Number(fields[3]);
  const hour = Number(fields[4]);
  const minute = Number(fields[5]);
  const second = Number(fields[6]);
  const offsetHours = Number(fields[9]);
  const offsetMinutes = Number(fields[10]);
  if (year < 100 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const local = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC carries a day past the month's end into the next month: such a date is not valid.
  if (day < 1 || new Date(local).getUTCDate() !== day) return null;
  const micros = fields[7] ?? '000000';
  const offset = (fields[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const seconds = local - offset;
  const iso =
    offset === 0
      ? `${stamp.slice(0, 19)}.${micros}Z`
      : `${new Date(seconds).toISOString().slice(0, -4)}${micros}Z`;
  return { iso, millis: seconds + Number(micros.slice(0, 3)) };
}

function anyTimestamp(stamp: string): { iso: string; millis: number } | null {
  const parts = /^([^.]*)(?:\.(\d+))?(.*)$/s.exec(stamp);
  if (!parts) return null;
  const [, before = '', fraction = '', after = ''] = parts;
  // Whole seconds first: the fraction never changes with the offset, and rounding it in Date
  // could carry into the next second.
  const seconds = Date.parse(`${before}${after}`.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  if (Number.isNaN(seconds)) return null;
  const micros = fraction.padEnd(6, '0').slice(0, 6);
  return {
    iso: `${new Date(seconds).toISOString().slice(0, -4)}${micros}Z`,
    millis: seconds + Number(micros.slice(0, 3)),
  };
}

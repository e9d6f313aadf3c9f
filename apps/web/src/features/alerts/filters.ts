import { AlertFilters } from '@palisade/contract';

/** Relative time ranges of the filter; 'any' means no bound, 'custom' uses from/to. */
export const RANGES = ['any', '1h', '24h', '7d', '30d', 'custom'] as const;
export type RangeId = (typeof RANGES)[number];

const RANGE_MS: Record<Exclude<RangeId, 'any' | 'custom'>, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

/** What the filter form holds: text as typed, '' for "any". */
export interface FilterForm {
  device: string;
  range: RangeId;
  /** datetime-local values (the reader's time zone), used with range 'custom'. */
  from: string;
  to: string;
  severity: string;
  signature: string;
  src_ip: string;
  src_port: string;
  dest_ip: string;
  dest_port: string;
  proto: string;
  acknowledged: '' | 'true' | 'false';
}

export const EMPTY_FORM: FilterForm = {
  device: '',
  range: 'any',
  from: '',
  to: '',
  severity: '',
  signature: '',
  src_ip: '',
  src_port: '',
  dest_ip: '',
  dest_port: '',
  proto: '',
  acknowledged: '',
};

export type FilterErrors = Partial<Record<keyof FilterForm, true>>;

const localToIso = (value: string): string | undefined => {
  if (value === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? 'invalid' : date.toISOString();
};

/**
 * The form as the API's filters, checked with the contract's own schema. A relative range is
 * fixed to absolute times now, so the query stays the same until the filters are applied again.
 */
export function toFilters(
  form: FilterForm,
  now: number,
): { filters: AlertFilters; errors: FilterErrors } {
  const raw: Record<string, string | undefined> = {
    device_id: form.device,
    severity: form.severity,
    signature: form.signature.trim(),
    src_ip: form.src_ip.trim(),
    src_port: form.src_port.trim(),
    dest_ip: form.dest_ip.trim(),
    dest_port: form.dest_port.trim(),
    proto: form.proto.trim(),
    acknowledged: form.acknowledged,
  };
  if (form.range === 'custom') {
    raw.since = localToIso(form.from);
    raw.until = localToIso(form.to);
  } else if (form.range !== 'any') {
    raw.since = new Date(now - RANGE_MS[form.range]).toISOString();
  }
  const given = Object.fromEntries(
    Object.entries(raw).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
  const parsed = AlertFilters.safeParse(given);
  if (parsed.success) return { filters: parsed.data, errors: {} };
  const errors: FilterErrors = {};
  for (const issue of parsed.error.issues) {
    const field = FORM_FIELD[String(issue.path[0])];
    if (field !== undefined) errors[field] = true;
  }
  return { filters: {}, errors };
}

const FORM_FIELD: Record<string, keyof FilterForm> = {
  device_id: 'device',
  since: 'from',
  until: 'to',
  severity: 'severity',
  signature: 'signature',
  src_ip: 'src_ip',
  src_port: 'src_port',
  dest_ip: 'dest_ip',
  dest_port: 'dest_port',
  proto: 'proto',
  acknowledged: 'acknowledged',
};

/** The filters as query parameters (only those given). */
export function filterParams(filters: AlertFilters): Record<string, string> {
  return Object.fromEntries(
    Object.entries(filters)
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([key, value]) => [key, String(value)]),
  );
}

/** How many filters are in force, for the form's summary. */
export const activeFilterCount = (filters: AlertFilters) =>
  Object.keys(filterParams(filters)).length;

const FORM_KEYS = Object.keys(EMPTY_FORM) as (keyof FilterForm)[];
const isRange = (value: string): value is RangeId => (RANGES as readonly string[]).includes(value);

/** The filter form as read from the page's URL (?device=3&signature=2200073…). */
export function formFromParams(params: URLSearchParams): FilterForm {
  const form: FilterForm = { ...EMPTY_FORM };
  for (const key of FORM_KEYS) {
    const value = params.get(key);
    if (value === null) continue;
    if (key === 'range') {
      if (isRange(value)) form.range = value;
    } else if (key === 'acknowledged') {
      if (value === 'true' || value === 'false') form.acknowledged = value;
    } else form[key] = value;
  }
  return form;
}

/** The filter form written into the page's URL: only what differs from the empty form. */
export function formToParams(form: FilterForm, params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of FORM_KEYS) {
    if (form[key] === EMPTY_FORM[key]) next.delete(key);
    else next.set(key, form[key]);
  }
  return next;
}

import { AlertFilters, AlertRelativeRange } from '@palisade/contract';

/** Time ranges of the filter: the relative ones, 'any' (no bound), 'custom' (from/to). */
export const RANGES = ['any', ...AlertRelativeRange.options, 'custom'] as const;
export type RangeId = (typeof RANGES)[number];

const RANGE_MS: Record<AlertRelativeRange, number> = {
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
  /** Starred (escalated) alerts only, or only those not starred. */
  starred: '' | 'true' | 'false';
  /** Exclusions, set by a pivot's "exclude" (not in the form's inputs; shown as chips). */
  not_device: string;
  not_sid: string;
  not_src_ip: string;
  not_src_port: string;
  not_dest_ip: string;
  not_dest_port: string;
  not_proto: string;
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
  starred: '',
  not_device: '',
  not_sid: '',
  not_src_ip: '',
  not_src_port: '',
  not_dest_ip: '',
  not_dest_port: '',
  not_proto: '',
};

/** The exclusion fields of the form, as a pivot sets them. */
export const EXCLUSIONS = [
  'not_device',
  'not_sid',
  'not_src_ip',
  'not_src_port',
  'not_dest_ip',
  'not_dest_port',
  'not_proto',
] as const;
export type Exclusion = (typeof EXCLUSIONS)[number];

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
    starred: form.starred,
    not_device_id: form.not_device,
    not_sid: form.not_sid,
    not_src_ip: form.not_src_ip,
    not_src_port: form.not_src_port,
    not_dest_ip: form.not_dest_ip,
    not_dest_port: form.not_dest_port,
    not_proto: form.not_proto,
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

/** The form field of each API filter (and back: saved views hold API filters). */
export const FORM_FIELD: Record<string, keyof FilterForm> = {
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
  starred: 'starred',
  not_device_id: 'not_device',
  not_sid: 'not_sid',
  not_src_ip: 'not_src_ip',
  not_src_port: 'not_src_port',
  not_dest_ip: 'not_dest_ip',
  not_dest_port: 'not_dest_port',
  not_proto: 'not_proto',
};

/** What a pivot filters on: the form field it sets, and the one that excludes the value. */
export const PIVOTS = {
  device: { include: 'device', exclude: 'not_device' },
  sid: { include: 'signature', exclude: 'not_sid' },
  src_ip: { include: 'src_ip', exclude: 'not_src_ip' },
  src_port: { include: 'src_port', exclude: 'not_src_port' },
  dest_ip: { include: 'dest_ip', exclude: 'not_dest_ip' },
  dest_port: { include: 'dest_port', exclude: 'not_dest_port' },
  proto: { include: 'proto', exclude: 'not_proto' },
} as const satisfies Record<string, { include: keyof FilterForm; exclude: Exclusion }>;
export type PivotField = keyof typeof PIVOTS;

/**
 * The form with one pivot applied: "only this value" sets the field (and drops an exclusion of
 * the same value); "not this value" sets the exclusion (and drops the same value as a filter).
 */
export function pivot(
  form: FilterForm,
  field: PivotField,
  value: string,
  exclude: boolean,
): FilterForm {
  const { include, exclude: excluded } = PIVOTS[field];
  if (exclude)
    return {
      ...form,
      [excluded]: value,
      ...(form[include] === value ? { [include]: EMPTY_FORM[include] } : {}),
    };
  return {
    ...form,
    [include]: value,
    ...(form[excluded] === value ? { [excluded]: '' } : {}),
  };
}

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
    } else if (key === 'acknowledged' || key === 'starred') {
      if (value === 'true' || value === 'false') form[key] = value;
    } else form[key] = value;
  }
  return form;
}

/** A form's identity for comparison: its values in a fixed order. */
export const formKey = (form: FilterForm): string =>
  JSON.stringify(FORM_KEYS.map((key) => form[key]));

/** The filter form written into the page's URL: only what differs from the empty form. */
export function formToParams(form: FilterForm, params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of FORM_KEYS) {
    if (form[key] === EMPTY_FORM[key]) next.delete(key);
    else next.set(key, form[key]);
  }
  return next;
}

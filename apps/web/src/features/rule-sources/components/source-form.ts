import { z } from 'zod';
import {
  RuleSourceCreate,
  RuleSourceHeader,
  RuleSourceSchedule,
  type RuleSource,
  type RuleSourceCatalogueEntry,
  type RuleSourceUpdate,
} from '@palisade/contract';

/**
 * The source dialog's fields, checked with the contract's own pieces. Secret and header values
 * are write-only: an edit starts with them empty, and empty keeps what is stored.
 */
export const SourceForm = z
  .object({
    name: RuleSourceCreate.shape.name,
    url: RuleSourceCreate.shape.url,
    checksum_url: z.union([z.literal(''), RuleSourceCreate.shape.url]),
    secret_code: z.string().trim().max(500),
    clear_secret: z.boolean(),
    headers: z.array(RuleSourceHeader),
    clear_headers: z.boolean(),
    schedule_kind: z.enum(['manual', 'interval', 'daily']),
    hours: z.coerce.number<string | number>().int().min(1).max(720),
    time: z.string(),
    enabled: z.boolean(),
    catalogue_id: z.string().nullable(),
  })
  .superRefine((values, context) => {
    if (values.schedule_kind !== 'daily') return;
    const parsed = RuleSourceSchedule.safeParse({ kind: 'daily', time: values.time });
    if (!parsed.success) {
      context.addIssue({ code: 'custom', path: ['time'], message: 'must be HH:MM (UTC)' });
    }
  });
export type SourceFormInput = z.input<typeof SourceForm>;
export type SourceFormValues = z.output<typeof SourceForm>;

const DEFAULT_HOURS = 24;
const DEFAULT_TIME = '03:00';

export function scheduleOf(values: SourceFormValues): RuleSourceSchedule {
  switch (values.schedule_kind) {
    case 'manual':
      return { kind: 'manual' };
    case 'interval':
      return { kind: 'interval', hours: values.hours };
    case 'daily':
      return { kind: 'daily', time: values.time };
  }
}

/** The form's first values: a stored source, a catalogue entry, or nothing. */
export function initialValues(
  from: { source: RuleSource } | { entry: RuleSourceCatalogueEntry } | null,
): SourceFormInput {
  const blank: SourceFormInput = {
    name: '',
    url: '',
    checksum_url: '',
    secret_code: '',
    clear_secret: false,
    headers: [],
    clear_headers: false,
    schedule_kind: 'daily',
    hours: DEFAULT_HOURS,
    time: DEFAULT_TIME,
    enabled: true,
    catalogue_id: null,
  };
  if (from === null) return blank;
  if ('entry' in from) {
    const { entry } = from;
    return {
      ...blank,
      name: entry.name,
      url: entry.url,
      checksum_url: entry.checksum_url ?? '',
      catalogue_id: entry.id,
    };
  }
  const { source } = from;
  const schedule = source.schedule;
  return {
    ...blank,
    name: source.name,
    url: source.url,
    checksum_url: source.checksum_url ?? '',
    schedule_kind: schedule.kind,
    hours: schedule.kind === 'interval' ? schedule.hours : DEFAULT_HOURS,
    time: schedule.kind === 'daily' ? schedule.time : DEFAULT_TIME,
    enabled: source.enabled,
    catalogue_id: source.catalogue_id,
  };
}

/** POST /rulesources/ body. */
export function createBody(values: SourceFormValues): z.input<typeof RuleSourceCreate> {
  return {
    name: values.name,
    url: values.url,
    checksum_url: values.checksum_url === '' ? null : values.checksum_url,
    catalogue_id: values.catalogue_id,
    secret_code: values.secret_code === '' ? null : values.secret_code,
    headers: values.headers,
    schedule: scheduleOf(values),
    enabled: values.enabled,
  };
}

/** PUT /rulesources/{id} body: an empty secret or header list keeps what is stored. */
export function updateBody(values: SourceFormValues): RuleSourceUpdate {
  const body: RuleSourceUpdate = {
    name: values.name,
    url: values.url,
    checksum_url: values.checksum_url === '' ? null : values.checksum_url,
    schedule: scheduleOf(values),
    enabled: values.enabled,
  };
  if (values.secret_code !== '') body.secret_code = values.secret_code;
  else if (values.clear_secret) body.secret_code = null;
  if (values.headers.length > 0) body.headers = values.headers;
  else if (values.clear_headers) body.headers = [];
  return body;
}

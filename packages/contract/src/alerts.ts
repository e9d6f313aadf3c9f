import { z } from 'zod';
import { INT4_MAX, SafeString } from './common.js';

/** Filters of the alerts screen; all optional and combined with AND. */
export const AlertFilters = z.object({
  device_id: z.coerce.number().int().min(1).max(INT4_MAX).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  /** Suricata severity: 1 (high) to 4; this and more severe. */
  severity: z.coerce.number().int().min(1).max(255).optional(),
  /** A signature id, or text found in the signature message. */
  signature: SafeString.trim().max(200).optional(),
  src_ip: SafeString.trim().max(64).optional(),
  dest_ip: SafeString.trim().max(64).optional(),
  src_port: z.coerce.number().int().min(0).max(65535).optional(),
  dest_port: z.coerce.number().int().min(0).max(65535).optional(),
  proto: SafeString.trim().max(20).optional(),
  acknowledged: z.enum(['true', 'false']).optional(),
});
export type AlertFilters = z.infer<typeof AlertFilters>;

/**
 * Newest first. Deep pages use the keyset cursor (`before`, from the previous page's
 * `next_cursor`) instead of an offset, so page 10,000 costs what page 1 does.
 */
export const AlertListQuery = AlertFilters.extend({
  limit: z.coerce.number().int().min(1).max(5000).default(100),
  before: z
    .string()
    .regex(/^\d+:\d+$/, 'Not valid')
    .optional(),
  /** Count matching alerts exactly up to this many; beyond it recordsTotal is a lower bound. */
  count_limit: z.coerce.number().int().min(0).max(10_000_000).default(100_000),
});

/**
 * An alert's time as the sensor wrote it, in UTC to the microsecond:
 * `2024-05-01T10:11:12.123456Z` (Suricata writes microseconds; a Date would cut them).
 */
export const AlertTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);

export const Alert = z.object({
  id: z.number().int(),
  device_id: z.number().int(),
  device: z.string(),
  time: AlertTime,
  gid: z.number().int().nullable(),
  sid: z.number().int().nullable(),
  rev: z.number().int().nullable(),
  msg: z.string().nullable(),
  /** `""` when the rule has no classtype (as Suricata writes it); null when the event had none. */
  category: z.string().nullable(),
  severity: z.number().int().nullable(),
  action: z.string().nullable(),
  proto: z.string().nullable(),
  app_proto: z.string().nullable(),
  src_ip: z.string().nullable(),
  src_port: z.number().int().nullable(),
  dest_ip: z.string().nullable(),
  dest_port: z.number().int().nullable(),
  acknowledged: z.boolean(),
});
export type Alert = z.infer<typeof Alert>;

export const AlertPage = z.object({
  data: z.array(Alert),
  /** Exact up to count_limit; `recordsTotalIsExact` says which. */
  recordsTotal: z.number().int(),
  recordsTotalIsExact: z.boolean(),
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_cursor: z.string().nullable(),
});

export const AlertDetail = Alert.extend({
  /** The whole eve.json event as the sensor wrote it. */
  event: z.record(z.string(), z.unknown()),
  /** The rule that fired, when the organization has it. */
  rule: z.object({ id: z.number().int(), text: z.string(), source: z.string() }).nullable(),
  acknowledged_at: z.string().nullable(),
  acknowledged_by: z.string().nullable(),
  /** The device's policy, which tuning actions change. */
  policy_id: z.number().int().nullable(),
});

export const AlertSignatureGroup = z.object({
  gid: z.number().int().nullable(),
  sid: z.number().int().nullable(),
  msg: z.string().nullable(),
  severity: z.number().int().nullable(),
  count: z.number().int(),
  devices: z.number().int(),
  first_seen: AlertTime,
  last_seen: AlertTime,
});
export const AlertGroupsQuery = AlertFilters.extend({
  limit: z.coerce.number().int().min(1).max(10_000).default(100),
});
export const AlertGroups = z.object({ data: z.array(AlertSignatureGroup) });

export const AlertHistogramQuery = AlertFilters.extend({
  buckets: z.coerce.number().int().min(1).max(1000).default(60),
});
export const AlertHistogram = z.object({
  /** Bucket width in seconds. */
  interval: z.number(),
  data: z.array(z.object({ time: z.string(), count: z.number().int() })),
});

/** Alert ids are PostgreSQL bigints (a fleet stores billions): any safe positive integer. */
export const AlertIdParams = z.object({ id: z.coerce.number().int().positive() });

export const AlertAck = z.object({
  ids: z.array(z.number().int().positive()).min(1).max(10_000),
  acknowledged: z.boolean().default(true),
});

/** Tuning from an alert: disable its rule, or suppress its source, in the device's policy. */
export const AlertTune = z.object({
  action: z.enum(['disable_rule', 'suppress_source']),
});
export const AlertTuneResult = z.object({
  policy_id: z.number().int(),
  policy_version: z.number().int(),
  msg: z.string(),
});

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
  /** Exclusions (a pivot's "not this value"): alerts whose field equals the value are left out. */
  not_device_id: z.coerce.number().int().min(1).max(INT4_MAX).optional(),
  /** A signature id to leave out. */
  not_sid: z.coerce.number().int().min(0).max(4_294_967_295).optional(),
  not_src_ip: SafeString.trim().max(64).optional(),
  not_dest_ip: SafeString.trim().max(64).optional(),
  not_src_port: z.coerce.number().int().min(0).max(65535).optional(),
  not_dest_port: z.coerce.number().int().min(0).max(65535).optional(),
  not_proto: SafeString.trim().max(20).optional(),
  /** Escalated (starred) alerts only, or only those not starred. */
  starred: z.enum(['true', 'false']).optional(),
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
  /** Escalated by an analyst (the star). */
  starred: z.boolean(),
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

/**
 * One analyst's comment on an alert; `author` is their e-mail and `author_id` their user id
 * (both null once they are deleted). Its author or an Administrator may edit or delete it.
 */
export const AlertComment = z.object({
  id: z.number().int(),
  body: z.string(),
  author: z.string().nullable(),
  author_id: z.number().int().nullable(),
  created_at: z.string(),
  /** When its text was last corrected; null while it is as first written. */
  edited_at: z.string().nullable(),
});
export type AlertComment = z.infer<typeof AlertComment>;

/** A comment's text, on one alert or on every alert a bulk action matches. */
const AlertCommentText = SafeString.trim().min(1).max(2000);

/**
 * What became of an alert's rule in its policy since the alert (issue 20): `disabled`, the
 * policy no longer runs it (disabled or taken out); `enabled`, it runs it and did not then;
 * `modified`, it runs another text of it.
 */
export const AlertRuleChange = z.enum(['modified', 'disabled', 'enabled']);
export type AlertRuleChange = z.infer<typeof AlertRuleChange>;

/**
 * The policy a device ran when one of its alerts was stored: the one deployed to it (else
 * assigned) and the version it had last applied.
 */
export const AlertFiredUnder = z.object({
  policy_id: z.number().int(),
  /** Null once the policy is deleted. */
  policy_name: z.string().nullable(),
  /** Null when the device had applied no policy version yet. */
  version: z.number().int().nullable(),
  /** The policy's version now; null once it is deleted. */
  current_version: z.number().int().nullable(),
  /**
   * What changed for the alert's rule between `version` and `current_version` (their rendered
   * rules files compared); null when nothing did, or when either version is unknown.
   */
  rule_change: AlertRuleChange.nullable(),
});
export type AlertFiredUnder = z.infer<typeof AlertFiredUnder>;

export const AlertDetail = Alert.extend({
  /** The whole eve.json event as the sensor wrote it. */
  event: z.record(z.string(), z.unknown()),
  /** The rule that fired, when the organization has it. */
  rule: z
    .object({
      id: z.number().int(),
      text: z.string(),
      source: z.string(),
      /** The rule's revision now; the alert's own `rev` is the one the engine ran. */
      rev: z.number().int().nullable(),
    })
    .nullable(),
  /** Null for alerts stored before issue 20, or from a device without a policy. */
  fired_under: AlertFiredUnder.nullable(),
  acknowledged_at: z.string().nullable(),
  acknowledged_by: z.string().nullable(),
  /** Analysts' comments, oldest first (from bulk triage or one alert). */
  comments: z.array(AlertComment),
  /** The device's policy, which tuning actions change. */
  policy_id: z.number().int().nullable(),
  policy_name: z.string().nullable(),
  /** The eve event's flow id (64-bit, as text so no digit is lost); null when it had none. */
  flow_id: z.string().nullable(),
});

/** An alert of the same flow or host pair, as the drawer lists it. */
export const RelatedAlert = Alert.pick({
  id: true,
  time: true,
  device: true,
  sid: true,
  msg: true,
  severity: true,
  src_ip: true,
  src_port: true,
  dest_ip: true,
  dest_port: true,
});
export const AlertRelatedQuery = z.object({
  /** Minutes either side of the alert for the host pair. */
  window: z.coerce.number().int().min(1).max(1440).default(15),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const AlertRelated = z.object({
  /** Other alerts with the same flow_id (and device), newest first. */
  flow: z.array(RelatedAlert),
  /** Other alerts between the same two addresses, either direction, within ±window minutes. */
  host_pair: z.array(RelatedAlert),
  window: z.number().int(),
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

/**
 * Groupings with a sparkline: by signature, source, destination or device. The console's
 * two-level view lists signatures, then a signature's sources (`by=source` with
 * `signature=<sid>`).
 */
export const AlertGrouping = z.enum(['signature', 'source', 'destination', 'device']);
export const AlertGroupsByQuery = AlertFilters.extend({
  by: AlertGrouping.default('source'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  /** Points of each group's sparkline, over the filter's window or the matches' own range. */
  buckets: z.coerce.number().int().min(1).max(200).default(24),
});
export const AlertGroupBy = z.object({
  /** The group's key: the fields of its grouping are set, the others null. */
  sid: z.number().int().nullable(),
  msg: z.string().nullable(),
  src_ip: z.string().nullable(),
  dest_ip: z.string().nullable(),
  device_id: z.number().int().nullable(),
  device: z.string().nullable(),
  count: z.number().int(),
  first_seen: AlertTime,
  last_seen: AlertTime,
  /** Alerts per bucket of `interval` seconds from `start` (the sparkline). */
  series: z.array(z.number().int()),
});
export const AlertGroupsBy = z.object({
  start: z.string().nullable(),
  interval: z.number(),
  data: z.array(AlertGroupBy),
});

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
/** PUT and DELETE /alerts/comments/{id}: a comment by its own id (bigint, like an alert's). */
export const AlertCommentIdParams = AlertIdParams;

export const AlertAck = z.object({
  ids: z.array(z.number().int().positive()).min(1).max(10_000),
  acknowledged: z.boolean().default(true),
});

/**
 * Triage of every alert matching `filter` (the list's own filters), done on the server. With
 * `dry_run` nothing changes and `count` is how many alerts the same request would change:
 * the console shows it before the user confirms. Acknowledge skips alerts already
 * acknowledged, reopen those open, star those starred, so the count is what changes.
 */
export const AlertBulkAction = z.enum(['acknowledge', 'reopen', 'star', 'unstar', 'comment']);
export const AlertBulk = z
  .object({
    filter: AlertFilters.default({}),
    action: AlertBulkAction,
    /** Required for `comment` (but in a dry run): the text added to each matching alert. */
    comment: AlertCommentText.optional(),
    dry_run: z.boolean().default(false),
  })
  .refine((b) => b.action !== 'comment' || b.dry_run || b.comment !== undefined, {
    path: ['comment'],
    message: 'Required for the comment action',
  });
export const AlertBulkResult = z.object({
  count: z.number().int(),
  dry_run: z.boolean(),
  msg: z.string(),
});

/** PUT /alerts/{id}/star: escalate one alert, or take its star away. */
export const AlertStar = z.object({ starred: z.boolean() });
export const AlertStarResult = z.object({ starred: z.boolean(), msg: z.string() });

/** POST /alerts/{id}/comments: a comment on one alert; answered with the alert's comments. */
export const AlertCommentWrite = z.object({ body: AlertCommentText });
export const AlertComments = z.object({ data: z.array(AlertComment) });

/** The alerts the filters match, newest first, as CSV or NDJSON (one Alert per line). */
export const AlertExportQuery = AlertFilters.extend({
  format: z.enum(['csv', 'ndjson']).default('csv'),
});
export type AlertExportQuery = z.output<typeof AlertExportQuery>;

/** Tuning from an alert: disable its rule, or suppress its source, in the device's policy. */
export const AlertTune = z.object({
  action: z.enum(['disable_rule', 'suppress_source']),
});
export const AlertTuneResult = z.object({
  policy_id: z.number().int(),
  policy_version: z.number().int(),
  msg: z.string(),
});

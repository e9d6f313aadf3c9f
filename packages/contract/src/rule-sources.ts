import { z } from 'zod';
import { SafeString } from './common.js';
import { RejectedLine } from './rules.js';

/**
 * Rule sources: rule sets fetched from a URL on a schedule and imported as that source's groups
 * (`/api/v1/rulesources/`). Administrators and Operators edit, Viewers read.
 */

/** Written in a source URL where the secret code goes, as suricata-update's index writes it. */
export const SECRET_CODE_PLACEHOLDER = '%(secret-code)s';

/** When a source is updated by itself. Daily times are UTC. */
export const RuleSourceSchedule = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('manual') }),
  z.object({ kind: z.literal('interval'), hours: z.number().int().min(1).max(720) }),
  z.object({
    kind: z.literal('daily'),
    time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (UTC)'),
  }),
]);
export type RuleSourceSchedule = z.infer<typeof RuleSourceSchedule>;

export const RuleSourceUpdateStatus = z.enum([
  'queued',
  'running',
  /** Fetched and imported; the counts say what changed (possibly nothing). */
  'succeeded',
  /** The server said Not Modified, or the checksum did not move: nothing fetched or written. */
  'unchanged',
  /** Nothing changed; `error` says why. */
  'failed',
]);
export type RuleSourceUpdateStatus = z.infer<typeof RuleSourceUpdateStatus>;

/**
 * The source list's `status:` filter, by its newest update: `succeeded` takes an unchanged
 * one too, `running` a queued one, `never` a source without updates.
 */
export const RULE_SOURCE_STATUS_FILTERS = ['failed', 'succeeded', 'running', 'never'] as const;
export type RuleSourceStatusFilter = (typeof RULE_SOURCE_STATUS_FILTERS)[number];

/** What a running update is doing, for the "Update now" progress. */
export const RuleSourceUpdatePhase = z.enum(['fetching', 'importing', 'rendering']);
export type RuleSourceUpdatePhase = z.infer<typeof RuleSourceUpdatePhase>;

export const RuleSourceUpdateSummary = z.object({
  id: z.number().int(),
  source_id: z.number().int(),
  status: RuleSourceUpdateStatus,
  phase: RuleSourceUpdatePhase.nullable(),
  trigger: z.enum(['manual', 'schedule']),
  /** The user who asked for it; null for a scheduled update. */
  requested_by: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  added: z.number().int(),
  removed: z.number().int(),
  changed: z.number().int(),
  enabled: z.number().int(),
  disabled: z.number().int(),
  /** Policies whose rendered rules changed and got a new version. */
  policies_bumped: z.number().int(),
  /** Bytes downloaded (0 when nothing was fetched). */
  bytes: z.number().int(),
  /** Why it failed, naming the cause (refused, timeout, HTTP 404, checksum mismatch, ...). */
  error: z.string().nullable(),
  /** Archive members without rules, lines rejected or worth a look (as an import reports). */
  warning_count: z.number().int(),
});
export type RuleSourceUpdateSummary = z.infer<typeof RuleSourceUpdateSummary>;

/** GET /rulesources/{id}/updates/{updateId}: the summary and the lines worth a look. */
export const RuleSourceUpdateDetail = RuleSourceUpdateSummary.extend({
  warnings: z.array(RejectedLine),
});
export type RuleSourceUpdateDetail = z.infer<typeof RuleSourceUpdateDetail>;

export const RuleSource = z.object({
  id: z.number().int(),
  name: z.string(),
  /** As entered, with SECRET_CODE_PLACEHOLDER where the secret goes (never the secret). */
  url: z.string(),
  checksum_url: z.string().nullable(),
  /** The catalogue entry it was added from, if any. */
  catalogue_id: z.string().nullable(),
  /** A secret code is stored (encrypted); its value is never returned. */
  has_secret: z.boolean(),
  /** Names of the request headers stored (encrypted); their values are never returned. */
  header_names: z.array(z.string()),
  schedule: RuleSourceSchedule,
  enabled: z.boolean(),
  /** Rules in this source's groups, and how many of them are enabled in their file. */
  rule_count: z.number().int(),
  enabled_count: z.number().int(),
  group_count: z.number().int(),
  last_update: RuleSourceUpdateSummary.nullable(),
  /** When an update last succeeded or found the source unchanged. */
  last_checked_at: z.string().nullable(),
  /** Null for a manual or disabled source. */
  next_update_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RuleSource = z.infer<typeof RuleSource>;

const SourceUrl = SafeString.trim()
  .min(1, 'Required')
  .max(2000)
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value), 'must be an http:// or https:// URL');

export const RuleSourceHeader = z.object({
  name: SafeString.trim()
    .min(1)
    .max(100)
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP header name'),
  value: SafeString.max(4000).refine((v) => !/[\r\n]/.test(v), 'must be one line'),
});
export type RuleSourceHeader = z.infer<typeof RuleSourceHeader>;

export const RuleSourceCreate = z.object({
  name: SafeString.trim().min(1, 'Required').max(200),
  url: SourceUrl,
  checksum_url: SourceUrl.nullable().default(null),
  catalogue_id: SafeString.max(100).nullable().default(null),
  secret_code: SafeString.trim().max(500).nullable().default(null),
  headers: z.array(RuleSourceHeader).max(20).default([]),
  schedule: RuleSourceSchedule.default({ kind: 'daily', time: '03:00' }),
  enabled: z.boolean().default(true),
});
export type RuleSourceCreate = z.input<typeof RuleSourceCreate>;

/** PUT /rulesources/{id}: fields left out keep their value; `secret_code: null` clears it. */
export const RuleSourceUpdate = z.object({
  name: SafeString.trim().min(1, 'Required').max(200).optional(),
  url: SourceUrl.optional(),
  checksum_url: SourceUrl.nullable().optional(),
  secret_code: SafeString.trim().max(500).nullable().optional(),
  /** Replaces every stored header when given. */
  headers: z.array(RuleSourceHeader).max(20).optional(),
  schedule: RuleSourceSchedule.optional(),
  enabled: z.boolean().optional(),
});
export type RuleSourceUpdate = z.input<typeof RuleSourceUpdate>;

/** A well-known free source, offered so that adding one takes a click. */
export const RuleSourceCatalogueEntry = z.object({
  id: z.string(),
  name: z.string(),
  vendor: z.string(),
  description: z.string(),
  license: z.string(),
  /** The URL to store, with `%(__version__)s` already replaced by the Suricata version. */
  url: z.string(),
  checksum_url: z.string().nullable(),
  requires_secret: z.boolean(),
});
export type RuleSourceCatalogueEntry = z.infer<typeof RuleSourceCatalogueEntry>;

/** GET /rulesources/catalogue?suricata_version=7.0 */
export const RuleSourceCatalogueQuery = z.object({
  suricata_version: z
    .string()
    .regex(/^\d+\.\d+(\.\d+)?$/, 'must be a version such as 7.0')
    .default('7.0'),
});
export const RuleSourceCatalogue = z.object({ data: z.array(RuleSourceCatalogueEntry) });

/** POST /rulesources/{id}/update answers 202 with the update it queued (or the one running). */
export const RuleSourceUpdateStarted = z.object({ update_id: z.number().int() });

export const RuleSourceUpdateParams = z.object({
  id: z.coerce.number().int().min(1),
  updateId: z.coerce.number().int().min(1),
});

export const RuleChangeKind = z.enum(['added', 'removed', 'changed', 'enabled', 'disabled']);
export type RuleChangeKind = z.infer<typeof RuleChangeKind>;

/** One line of an update's changelog. Texts are the whole rule; the console diffs them. */
export const RuleChange = z.object({
  id: z.number().int(),
  update_id: z.number().int(),
  source_id: z.number().int(),
  kind: RuleChangeKind,
  gid: z.number().int(),
  sid: z.number().int(),
  /** The stored rule now (null if it no longer exists). */
  rule_id: z.number().int().nullable(),
  msg: z.string(),
  /** The archive member (path inside the archive) the rule is in (or was in, if removed). */
  file: z.string(),
  old_rev: z.number().int().nullable(),
  new_rev: z.number().int().nullable(),
  old_text: z.string().nullable(),
  new_text: z.string().nullable(),
  /** When the update that made this change finished. */
  at: z.string(),
});
export type RuleChange = z.infer<typeof RuleChange>;

/** GET /rulesources/rule-changes?gid=1&sid=N: one rule's changes across every update, newest first. */
export const RuleChangesQuery = z.object({
  gid: z.coerce.number().int().min(1).default(1),
  sid: z.coerce.number().int().min(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

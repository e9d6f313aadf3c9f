import { z } from 'zod';
import { INT4_MAX } from './common.js';

const QueryId = z.coerce.number().int().min(1).max(INT4_MAX);

/**
 * Rule analytics (issue 20): which rules fire, how often, where, and which never do. Read from
 * the hourly alert rollup kept at ingest, never by scanning alerts. Days are UTC days; a
 * window of `days` ends now and starts at the beginning of the UTC day `days - 1` days ago.
 */
export const RuleAnalyticsQuery = z.object({
  days: z.coerce.number().int().min(1).max(90).default(7),
  /** One device's alerts only. */
  device_id: QueryId.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type RuleAnalyticsQuery = z.input<typeof RuleAnalyticsQuery>;

/** Alerts per UTC day of the window, oldest first, one entry per day (zeros included). */
export const DailyCounts = z.array(z.number().int());

export const NoisyRule = z.object({
  gid: z.number().int().nullable(),
  sid: z.number().int().nullable(),
  msg: z.string().nullable(),
  count: z.number().int(),
  /** count / all alerts of the window. */
  share: z.number(),
  devices: z.number().int(),
  daily: DailyCounts,
  last_seen: z.string(),
});
export type NoisyRule = z.infer<typeof NoisyRule>;

/**
 * A rule whose share of the last day's alerts is at least 3 times its share of the days before
 * (or that fired on the last day and not before), with at least 10 alerts on the last day.
 */
export const JumpedRule = z.object({
  gid: z.number().int().nullable(),
  sid: z.number().int().nullable(),
  msg: z.string().nullable(),
  /** Alerts of the last 24 hours, and their share of all alerts then. */
  recent: z.number().int(),
  recent_share: z.number(),
  /** Alerts per day of the days before, and their share of all alerts then. */
  baseline_per_day: z.number(),
  baseline_share: z.number(),
  /** recent_share / baseline_share; null when the rule did not fire before. */
  factor: z.number().nullable(),
});
export type JumpedRule = z.infer<typeof JumpedRule>;

export const RuleAnalytics = z.object({
  days: z.number().int(),
  /** The window's first day (UTC, `YYYY-MM-DD`); `daily` counts start there. */
  since: z.string(),
  total: z.number().int(),
  /** The most alerts first. */
  noisiest: z.array(NoisyRule),
  /** The largest factor first (new rules before the others); empty with a window of one day. */
  jumped: z.array(JumpedRule),
});
export type RuleAnalytics = z.infer<typeof RuleAnalytics>;

export const SilentRulesQuery = z.object({
  days: z.coerce.number().int().min(1).max(90).default(30),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export type SilentRulesQuery = z.input<typeof SilentRulesQuery>;

/** A rule the policy runs that raised no alert on any of its devices in the window. */
export const SilentRule = z.object({
  gid: z.number().int(),
  sid: z.number().int(),
  msg: z.string().nullable(),
});

export const SilentRules = z.object({
  policy_id: z.number().int(),
  days: z.number().int(),
  /** The rules the policy's current version runs, and its devices. */
  enabled: z.number().int(),
  devices: z.number().int(),
  /** Of the enabled rules, those silent in the window; `data` is one page of them, by sid. */
  recordsTotal: z.number().int(),
  data: z.array(SilentRule),
});
export type SilentRules = z.infer<typeof SilentRules>;

export const RuleActivityParams = z.object({
  gid: z.coerce.number().int().min(0).max(INT4_MAX),
  sid: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

export const RuleActivityQuery = z.object({
  days: z.coerce.number().int().min(1).max(90).default(30),
  device_id: QueryId.optional(),
});
export type RuleActivityQuery = z.input<typeof RuleActivityQuery>;

/** One rule's alerts: per day over the window, and per device, with when it first and last fired. */
export const RuleActivity = z.object({
  gid: z.number().int(),
  sid: z.number().int(),
  msg: z.string().nullable(),
  days: z.number().int(),
  since: z.string(),
  count: z.number().int(),
  daily: DailyCounts,
  /** Over every alert the console keeps (its retention), not only the window; null: never. */
  first_seen: z.string().nullable(),
  last_seen: z.string().nullable(),
  /** The devices where it fired in the window, the most alerts first. */
  devices: z.array(
    z.object({
      device_id: z.number().int(),
      device: z.string(),
      count: z.number().int(),
      last_seen: z.string(),
    }),
  ),
});
export type RuleActivity = z.infer<typeof RuleActivity>;

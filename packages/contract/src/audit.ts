import { z } from 'zod';
import { SafeString } from './common.js';

/**
 * The audit log (`/api/v1/audit/`): every change made through the API, recorded in the same
 * transaction as the change, and every sign-in. Administrators read their organization's log.
 */

/** Who made a change: a console user, a device's agent, or the server itself (scheduled work). */
export const AuditActorKind = z.enum(['user', 'device', 'server']);
export type AuditActorKind = z.infer<typeof AuditActorKind>;

/** What kind of object a change touched. */
export const AuditObjectType = z.enum([
  'user',
  'organization',
  'rule',
  'group',
  'rule_source',
  'policy',
  'profile',
  'device',
  'firewall_ruleset',
  'device_network',
  'alert',
  /** A saved view of the alerts screen. */
  'alert_view',
  /** An analyst's comment on an alert, edited or deleted (adding one is recorded on the alert). */
  'alert_comment',
  'enrolment',
  'deployment',
  'session',
]);
export type AuditObjectType = z.infer<typeof AuditObjectType>;

/**
 * What was done. `create`, `update`, `delete` cover most writes; the others name actions that
 * are not plain edits so the log reads as an operator expects.
 */
export const AuditAction = z.enum([
  'create',
  'update',
  'delete',
  'import',
  /** A rule source asked to fetch now (its import follows, recorded by the server). */
  'update_now',
  'assign',
  'rollback',
  'deploy',
  'expire',
  'acknowledge',
  /** Alerts starred (escalated) or unstarred. */
  'star',
  /** A comment added to alerts. */
  'comment',
  'tune',
  /** A device asked to re-pull and re-apply everything. */
  'flush',
  /** Devices asked to install the agent version the server serves. */
  'upgrade',
  'sign_in',
  'sign_in_failed',
  'password_reset',
  'token_issued',
  /** An agent redeemed an enrolment token for its device's password. */
  'enrol',
  'lockout_override',
]);
export type AuditAction = z.infer<typeof AuditAction>;

export const AuditRecord = z.object({
  id: z.number().int(),
  at: z.string(),
  actor_kind: AuditActorKind,
  /** User or device id; null for the server. */
  actor_id: z.number().int().nullable(),
  /** The user's e-mail or the device's name at the time (kept when they are deleted later). */
  actor_name: z.string(),
  action: AuditAction,
  object_type: AuditObjectType,
  object_id: z.string().nullable(),
  object_name: z.string().nullable(),
  /** What changed: the fields that differ, before and after (secrets never appear). */
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  /** The request that made it, to find its log lines. */
  request_id: z.string().nullable(),
});
export type AuditRecord = z.infer<typeof AuditRecord>;

/** GET /audit/: newest first, paged by keyset (`before_id` = the last id of the previous page). */
export const AuditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  before_id: z.coerce.number().int().min(1).optional(),
  actor: SafeString.max(320).optional(),
  action: AuditAction.optional(),
  object_type: AuditObjectType.optional(),
  object_id: SafeString.max(64).optional(),
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
});
export type AuditQuery = z.output<typeof AuditQuery>;

/** GET /audit/export: the same filters, the whole of what they match, oldest last. */
export const AuditExportQuery = AuditQuery.omit({ limit: true, before_id: true }).extend({
  format: z.enum(['csv', 'json']).default('csv'),
});
export type AuditExportQuery = z.output<typeof AuditExportQuery>;

export const AuditPage = z.object({
  data: z.array(AuditRecord),
  /** Pass as `before_id` for the next page; null on the last page. */
  next_before_id: z.number().int().nullable(),
});
export type AuditPage = z.infer<typeof AuditPage>;

import { z } from 'zod';
import { INT4_MAX } from './common.js';

/**
 * Version history (`…/versions`, `…/versions/{a}/diff/{b}`, `…/rollback`) of policies, firewall
 * rulesets, device profiles and each device's routes/NAT.
 */

export const VersionKind = z.enum(['policy', 'firewall_ruleset', 'profile', 'device_network']);
export type VersionKind = z.infer<typeof VersionKind>;

/** One version in a list (newest first). */
export const VersionEntry = z.object({
  version: z.number().int(),
  created_at: z.string(),
  /** Who made it: a user's e-mail, or the server's job ("migration", "rule source …"). */
  actor_name: z.string(),
  /** `rollback`: made by rolling back to `restored_from`; `baseline`: recorded on upgrade. */
  cause: z.enum(['edit', 'rollback', 'baseline']),
  restored_from: z.number().int().nullable(),
  /** SHA-256 of what was rendered (a policy's: its `rendered_sha256`). */
  sha256: z.string(),
  /** Counts: `rule_count` (policies, rulesets), `variable_count`, `route_count`, `nat_count`. */
  summary: z.record(z.string(), z.number()),
  /** This is the object's current version. */
  current: z.boolean(),
});
export type VersionEntry = z.infer<typeof VersionEntry>;

export const VersionList = z.object({
  data: z.array(VersionEntry),
  recordsTotal: z.number().int(),
  /** How many devices run the object (what a rollback reaches). */
  device_count: z.number().int(),
});
export type VersionList = z.infer<typeof VersionList>;

export const VersionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(INT4_MAX).default(0),
});

const VersionNumber = z.coerce.number().int().min(1).max(INT4_MAX);

export const VersionDiffParams = z.object({
  id: z.coerce.number().int().min(1).max(INT4_MAX),
  a: VersionNumber,
  b: VersionNumber,
});

export const RollbackRequest = z.object({
  /** The version whose definition becomes the object's next version. */
  version: VersionNumber,
  /** Rulesets, profiles and routes: an Administrator's override of the lock-out check. */
  override_lockout: z.boolean().default(false),
});
export type RollbackRequest = z.input<typeof RollbackRequest>;

const DiffPart = z.object({
  value: z.string(),
  added: z.literal(true).optional(),
  removed: z.literal(true).optional(),
});

export const TextDiff = z.object({
  /** Unified diff with 3 lines of context; empty when equal. */
  unified: z.string(),
  added: z.number().int(),
  removed: z.number().int(),
});
export type TextDiff = z.infer<typeof TextDiff>;

const Counts = z.object({
  added: z.number().int(),
  removed: z.number().int(),
  changed: z.number().int(),
  unchanged: z.number().int(),
});

/** Suricata rules keyed by `gid:sid`; lists hold at most 1,000 entries (`truncated`). */
export const RulesDiff = z.object({
  added: z.array(z.object({ key: z.string(), text: z.string() })),
  removed: z.array(z.object({ key: z.string(), text: z.string() })),
  changed: z.array(
    z.object({ key: z.string(), old: z.string(), new: z.string(), diff: z.array(DiffPart) }),
  ),
  counts: Counts,
  truncated: z.boolean(),
});
export type RulesDiff = z.infer<typeof RulesDiff>;

/** Firewall rules in order (1-based positions); a replaced rule is `changed`. */
export const FirewallRulesDiff = z.object({
  added: z.array(z.object({ position: z.number().int(), text: z.string() })),
  removed: z.array(z.object({ position: z.number().int(), text: z.string() })),
  changed: z.array(
    z.object({
      old_position: z.number().int(),
      position: z.number().int(),
      old: z.string(),
      new: z.string(),
      diff: z.array(DiffPart),
    }),
  ),
  policies: z.array(z.object({ chain: z.string(), old: z.string(), new: z.string() })),
  counts: Counts,
});
export type FirewallRulesDiff = z.infer<typeof FirewallRulesDiff>;

export const VariablesDiff = z.object({
  added: z.array(z.object({ name: z.string(), value: z.string() })),
  removed: z.array(z.object({ name: z.string(), value: z.string() })),
  changed: z.array(z.object({ name: z.string(), old: z.string(), new: z.string() })),
});
export type VariablesDiff = z.infer<typeof VariablesDiff>;

/** Version `a` compared with version `b` (what changed going from a to b). */
export const VersionDiff = z.object({
  kind: VersionKind,
  a: z.number().int(),
  b: z.number().int(),
  /** Policies: the rules file compared rule by rule. */
  rules: RulesDiff.optional(),
  /** Policies: threshold.config. */
  thresholds: TextDiff.optional(),
  /** Policies: the settings that differ (`group_ids`, `overrides`, `matchers`, …). */
  changed_fields: z.array(z.string()).optional(),
  /** Rulesets: the rules in order and the chain policies. */
  firewall_rules: FirewallRulesDiff.optional(),
  /**
   * Rulesets: the nftables script (rendered with the variables of a device using the ruleset,
   * or Suricata's defaults when none does).
   */
  nftables: TextDiff.optional(),
  /** Profiles. */
  variables: VariablesDiff.optional(),
  /** Device networks: the iproute2 script, and NAT entries one a line. */
  routes: TextDiff.optional(),
  nat: TextDiff.optional(),
});
export type VersionDiff = z.infer<typeof VersionDiff>;

export const RollbackResponse = z.object({
  /** The object's version after the rollback (a new one unless nothing differed). */
  version: z.number().int(),
  restored_from: z.number().int(),
  /** False when the object already had that version's definition: nothing was written. */
  changed: z.boolean(),
  /** How many devices run the object. */
  device_count: z.number().int(),
  /**
   * Policies: the restored settings render other rules than the version did, because the rules
   * of its groups changed since (how many rules differ); null when the render is the same.
   */
  render_differs: z
    .object({ added: z.number().int(), removed: z.number().int(), changed: z.number().int() })
    .nullable(),
  /** What was left out: groups or rules deleted since the version. */
  skipped: z.array(z.string()),
  msg: z.string(),
});
export type RollbackResponse = z.infer<typeof RollbackResponse>;

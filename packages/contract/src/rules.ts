import { z } from 'zod';
import { Id, SafeString } from './common.js';

/** A detection rule as lists show it (the full text comes from /rulesmulti or /rules/{id}). */
export const RuleSummary = z.object({
  id: z.number().int(),
  gid: z.number().int(),
  sid: z.number().int(),
  rev: z.number().int().nullable(),
  action: z.string(),
  proto: z.string().nullable(),
  src_addr: z.string().nullable(),
  src_port: z.string().nullable(),
  direction: z.string().nullable(),
  dst_addr: z.string().nullable(),
  dst_port: z.string().nullable(),
  msg: z.string(),
  classtype: z.string().nullable(),
  /** The rule's own priority, else its classtype's from classification.config. */
  priority: z.number().int().nullable(),
  /** Enabled in its file (a `# alert …` line is a disabled rule). */
  enabled: z.boolean(),
  /** Gone from its file at the last import; kept so policies do not lose it silently. */
  removed: z.boolean(),
  /** The file (or 'custom') the rule came from. */
  source: z.string(),
  groups: z.array(z.string()),
  updated_at: z.string(),
});
export type RuleSummary = z.infer<typeof RuleSummary>;

export const RuleDetail = RuleSummary.extend({
  text: z.string(),
  metadata: z.array(z.object({ key: z.string(), value: z.string() })),
  references: z.array(z.object({ system: z.string(), id: z.string() })),
  flowbits: z.array(z.string()),
});
export type RuleDetail = z.infer<typeof RuleDetail>;

export const RulesMultiRequest = z.object({
  ids: z.array(Id).max(100_000),
});
export const RulesMultiResponse = z.object({ data: z.array(RuleDetail) });

/** The longest rule text, in characters: of POST /rules/, PUT /rules/{id} and each imported rule. */
export const RULE_TEXT_MAX = 64 * 1024;

/** POST /rules/ and PUT /rules/{id}: a custom rule's text, validated by the parser. */
export const RuleWrite = z.object({
  text: SafeString.trim().min(1, 'Required').max(RULE_TEXT_MAX),
  /** Groups to put a new rule in; without any it goes to the group "custom". */
  group_ids: z.array(Id).optional(),
});

/** PUT /rules/{id} may also just switch the action or enable/disable the rule. */
export const RuleUpdate = z
  .object({
    text: SafeString.trim().min(1).max(RULE_TEXT_MAX).optional(),
    action: SafeString.trim().min(1).max(32).optional(),
    enabled: z.boolean().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Nothing to change: give text, action or enabled',
  });

/** A line an import refused, with where and why. */
export const RejectedLine = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  msg: z.string(),
});
export type RejectedLine = z.infer<typeof RejectedLine>;

export const ImportFileReport = z.object({
  file: z.string(),
  group: z.string(),
  rules: z.number().int(),
});

/** What a rules import did, file by file and in total. */
export const ImportReport = z.object({
  files: z.array(ImportFileReport),
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  removed: z.number().int(),
  classifications: z.number().int(),
  rejected: z.array(RejectedLine),
  /**
   * Lines read but worth a look: a rule twice in one file (the later one is kept), a rule
   * another file holds with another text (one of the two is lost: rules are unique by gid and
   * sid), an older rev than the stored one (kept as stored). The first 1000; `warning_count`
   * counts them all.
   */
  warnings: z.array(RejectedLine),
  warning_count: z.number().int(),
});
export type ImportReport = z.infer<typeof ImportReport>;

export const RuleGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** 'file': kept in step with the imported rules file of that name; 'custom': edited by hand. */
  kind: z.enum(['file', 'custom']),
  /** The rule source that keeps this group (`/rulesources/`), or null. */
  source_id: z.number().int().nullable(),
  rule_count: z.number().int(),
  /** Of those, the rules enabled in their file (not commented out) and not removed from it. */
  enabled_count: z.number().int(),
  updated_at: z.string(),
});
export type RuleGroup = z.infer<typeof RuleGroup>;

const GroupName = SafeString.trim().min(1, 'Required').max(200);

export const RuleGroupCreate = z.object({
  name: GroupName,
  description: SafeString.trim().max(2000).default(''),
  rule_ids: z.array(Id).max(200_000).default([]),
});

export const RuleGroupUpdate = z.object({
  name: GroupName.optional(),
  description: SafeString.trim().max(2000).optional(),
  /** Replaces the group's rules. */
  rule_ids: z.array(Id).max(200_000).optional(),
  add_rule_ids: z.array(Id).max(200_000).optional(),
  remove_rule_ids: z.array(Id).max(200_000).optional(),
});

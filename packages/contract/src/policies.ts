import { z } from 'zod';
import { Id, INT4_MAX, SafeString, UINT32_MAX } from './common.js';
import { ExpiryFields } from './expiry.js';

/** What a per-rule override does to a rule in one policy. */
export const OverrideAction = z.enum(['enable', 'disable', 'drop']);
export type OverrideAction = z.infer<typeof OverrideAction>;

export const RuleOverride = z.object({
  rule_id: Id,
  action: OverrideAction,
  ...ExpiryFields,
});
export type RuleOverride = z.infer<typeof RuleOverride>;

/** A threshold.config entry: rate limits and suppressions for one signature. */
export const Threshold = z
  .object({
    kind: z.enum(['threshold', 'event_filter', 'suppress', 'rate_filter']),
    gid: z.number().int().min(0).max(INT4_MAX).default(1),
    sid: z.number().int().min(0).max(UINT32_MAX),
    track: z.enum(['by_src', 'by_dst', 'by_rule', 'by_both']).optional(),
    type: z.enum(['limit', 'threshold', 'both']).optional(),
    count: z.number().int().positive().max(INT4_MAX).optional(),
    seconds: z.number().int().positive().max(INT4_MAX).optional(),
    /** suppress: the address (or list / variable) whose alerts are dropped. */
    ip: SafeString.trim()
      .regex(/^[\w$!.:/,[\] -]+$/, 'Not valid')
      .max(2000)
      .optional(),
    /** rate_filter: what to do past the rate, and for how long. */
    new_action: z.enum(['alert', 'drop', 'pass', 'reject']).optional(),
    timeout: z.number().int().positive().max(INT4_MAX).optional(),
    comment: SafeString.max(500).optional(),
    ...ExpiryFields,
  })
  .superRefine((t, ctx) => {
    const need = (field: keyof typeof t) => {
      if (t[field] === undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: 'Required' });
    };
    switch (t.kind) {
      case 'suppress':
        if (t.ip !== undefined) need('track');
        break;
      case 'threshold':
      case 'event_filter':
        need('type');
        need('track');
        need('count');
        need('seconds');
        break;
      case 'rate_filter':
        need('track');
        need('count');
        need('seconds');
        need('new_action');
        need('timeout');
        break;
    }
  });
export type Threshold = z.infer<typeof Threshold>;

/** A suricata-update style line: `enable.conf`, `disable.conf`, `drop.conf` or `modify.conf`. */
export const PolicyMatcher = z.object({
  kind: z.enum(['enable', 'disable', 'drop', 'modify']),
  /** `2019401`, `1:2019401`, `group:emerging-dos`, `re:heartbleed`, `metadata: policy balanced-ips`. */
  matcher: SafeString.trim().min(1).max(2000),
  /** modify only: the text to replace (a regular expression) and its replacement. */
  from: SafeString.max(2000).optional(),
  to: SafeString.max(2000).optional(),
});
export type PolicyMatcher = z.infer<typeof PolicyMatcher>;

export const Policy = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  groups: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** Rules the policy renders (enabled after overrides). */
  rule_count: z.number().int(),
  /** Rules of its groups that vanished from their file at the last import (still rendered). */
  removed_count: z.number().int(),
  overrides: z.array(RuleOverride),
  thresholds: z.array(Threshold),
  matchers: z.array(PolicyMatcher),
  /** Changes whenever the rendered text changes. */
  version: z.number().int(),
  /** Restricted: only `editors` (and Administrators) may change it. */
  restricted: z.boolean(),
  /**
   * Enable, as suricata-update does, the rules of its groups that set, unset or toggle a
   * flowbit an enabled rule checks (`isset`, `isnotset`), marked `noalert`.
   */
  resolve_flowbits: z.boolean(),
  editors: z.array(z.number().int()),
  /**
   * The editors' e-mail addresses, in the order of `editors`: whoever may not list users (all
   * but Administrators) still sees who may change the policy.
   */
  editor_emails: z.array(z.string()),
  can_edit: z.boolean(),
  updated_at: z.string(),
});
export type Policy = z.infer<typeof Policy>;

const PolicyName = SafeString.trim().min(1, 'Required').max(200);

export const PolicyWrite = z.object({
  name: PolicyName,
  description: SafeString.trim().max(2000).default(''),
  group_ids: z.array(Id).max(10_000).default([]),
  overrides: z.array(RuleOverride).max(200_000).default([]),
  thresholds: z.array(Threshold).max(10_000).default([]),
  matchers: z.array(PolicyMatcher).max(100_000).default([]),
  restricted: z.boolean().default(false),
  resolve_flowbits: z.boolean().default(true),
  editors: z.array(Id).max(10_000).default([]),
});
export type PolicyWriteInput = z.input<typeof PolicyWrite>;

/** PUT /policies/{id}: what is given replaces; what is left out stays. */
export const PolicyUpdate = z.object({
  name: PolicyName.optional(),
  description: SafeString.trim().max(2000).optional(),
  group_ids: z.array(Id).max(10_000).optional(),
  overrides: z.array(RuleOverride).max(200_000).optional(),
  thresholds: z.array(Threshold).max(10_000).optional(),
  matchers: z.array(PolicyMatcher).max(100_000).optional(),
  restricted: z.boolean().optional(),
  resolve_flowbits: z.boolean().optional(),
  editors: z.array(Id).max(10_000).optional(),
});

/** The file a policy exports to and imports from. */
export const PolicyExport = z.object({
  format: z.literal('palisade-policy'),
  format_version: z.literal(1),
  name: SafeString,
  description: SafeString,
  /** Groups by name; rules by (gid, sid): ids differ between consoles. */
  groups: z.array(SafeString),
  overrides: z.array(
    z.object({
      gid: z.number().int().min(0).max(INT4_MAX),
      sid: z.number().int().min(0).max(UINT32_MAX),
      action: OverrideAction,
    }),
  ),
  thresholds: z.array(Threshold),
  matchers: z.array(PolicyMatcher),
  /** Absent in files of earlier consoles, which did not resolve flowbits: read as on. */
  resolve_flowbits: z.boolean().optional(),
});
export type PolicyExport = z.infer<typeof PolicyExport>;

/** A rule the render enabled only because an enabled rule checks a flowbit it writes. */
export const FlowbitEnabledRule = z.object({
  rule_id: z.number().int(),
  gid: z.number().int(),
  sid: z.number().int(),
  msg: z.string(),
  /** The checked flowbits it writes. */
  flowbits: z.array(z.string()),
});
export type FlowbitEnabledRule = z.infer<typeof FlowbitEnabledRule>;

export const PolicyRender = z.object({
  version: z.number().int(),
  rules: z.string(),
  thresholds: z.string(),
  rule_count: z.number().int(),
  /** By (gid, sid); empty when the policy does not resolve flowbits. */
  flowbit_rules: z.array(FlowbitEnabledRule),
});
export type PolicyRender = z.infer<typeof PolicyRender>;

export const PolicyUploadReport = z.object({
  policy: Policy,
  added: z.object({
    enable: z.number().int(),
    disable: z.number().int(),
    drop: z.number().int(),
    modify: z.number().int(),
  }),
  imported_export: z.boolean(),
  unknown_groups: z.array(z.string()),
  unknown_rules: z.array(z.string()),
});

// Changes with an end date (issue 18): a rule override, a threshold or suppression, and a
// firewall rule may carry when the server removes it and why it was made. The fields are
// optional everywhere: what has none stays until someone removes it.

import { z } from 'zod';
import { SafeString } from './common.js';

/** When the server removes the item (the expiry job runs every minute); null: never. */
export const ExpiresAt = z.iso.datetime({ offset: true }).nullable().optional();
/** Why the item was made (a ticket, an incident); shown beside its expiry. */
export const ExpiryReason = SafeString.trim().max(500).optional();

export const ExpiryFields = { expires_at: ExpiresAt, reason: ExpiryReason };

export const ExpiringKind = z.enum(['override', 'threshold', 'firewall_rule']);
export type ExpiringKind = z.infer<typeof ExpiringKind>;

/** One item that expires soon, named so that an operator can find it. */
export const ExpiringItem = z.object({
  kind: ExpiringKind,
  /** The policy (override, threshold) or firewall ruleset (rule) holding it. */
  object_type: z.enum(['policy', 'firewall_ruleset']),
  object_id: z.number().int(),
  object_name: z.string(),
  /** What the item is: `2019401 disable`, `suppress 1:2019401`, `input drop tcp 23`. */
  label: z.string(),
  expires_at: z.string(),
  reason: z.string().nullable(),
});
export type ExpiringItem = z.infer<typeof ExpiringItem>;

export const ExpiringQuery = z.object({
  /** How far ahead to look, in days (items already past expiry are listed too). */
  days: z.coerce.number().int().min(1).max(365).default(7),
});

export const ExpiringList = z.object({ data: z.array(ExpiringItem) });
export type ExpiringList = z.infer<typeof ExpiringList>;

import { z } from 'zod';
import { RuleOverride, Threshold } from './policies.js';

/**
 * POST /policies/{id}/backtest (issue 20): what a tuning change would have removed from the
 * stored alerts of the devices running the policy, over the last `days` days. `thresholds` and
 * `overrides` are the entries being considered, in the shapes the policy keeps; the alerts
 * stored already passed the policy's present entries.
 */
export const BacktestRequest = z.object({
  days: z.number().int().min(1).max(90),
  thresholds: z.array(Threshold).max(1_000).default([]),
  overrides: z.array(RuleOverride).max(10_000).default([]),
});
export type BacktestRequest = z.input<typeof BacktestRequest>;

export const BacktestDevice = z.object({
  device_id: z.number().int(),
  device: z.string(),
  /** The device's alerts the change would have removed, and all its alerts in the window. */
  removed: z.number().int(),
  total: z.number().int(),
});

export const BacktestSignature = z.object({
  gid: z.number().int(),
  sid: z.number().int(),
  msg: z.string().nullable(),
  removed: z.number().int(),
  total: z.number().int(),
  /** removed / total: the share of this signature's alerts the change removes. */
  share: z.number(),
});

export const BacktestResult = z.object({
  days: z.number().int(),
  /** The window's start; it ends now. */
  since: z.string(),
  removed: z.number().int(),
  total: z.number().int(),
  /** Every device running the policy, the most removed first. */
  by_device: z.array(BacktestDevice),
  /** The signatures the change removes alerts of, the most removed first. */
  by_signature: z.array(BacktestSignature),
  /** `$VARIABLES` a suppression names that a device's profile does not set (they match nothing). */
  unresolved_variables: z.array(z.string()),
  /** The policy's version now: the entries are judged as added to it. */
  policy_version: z.number().int(),
  /**
   * Of `removed`, the alerts raised under an earlier version of this policy (each alert records
   * the version its device ran): a change made since may already remove some of them.
   */
  removed_earlier: z.number().int(),
});
export type BacktestResult = z.infer<typeof BacktestResult>;

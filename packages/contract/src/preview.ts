import { z } from 'zod';

// "See before you send" (issue 18): every write that reaches devices has a sibling route, the
// same method and body at the write's path + `/preview`, which performs the write in a
// transaction, says what each device would receive and rolls it all back.

/**
 * Staged deploys (issue 18 item 6). In `immediate` mode every save reaches devices at once;
 * in `staged` mode saves make new versions but each device is served the versions last
 * deployed to it, until someone presses Deploy (`POST /deployments`). A deploy may go to a
 * canary subset first: the rest follow only when the canary gate passes.
 */
export const DeployMode = z.enum(['immediate', 'staged']);
export type DeployMode = z.infer<typeof DeployMode>;

/** Details are given for this many devices (the first by id); counts cover every device. */
export const PREVIEW_DEVICES_DETAILED = 25;
/** A script diff past this many characters is cut (and says so). */
export const PREVIEW_DIFF_MAX_CHARS = 64 * 1024;
/** Each list of rules added, removed or changed names at most this many. */
export const PREVIEW_RULES_LISTED = 200;

/** A unified diff of one script; null when the script did not change. */
export const PreviewTextDiff = z.object({
  diff: z.string(),
  /** The diff was longer than PREVIEW_DIFF_MAX_CHARS and was cut there. */
  truncated: z.boolean(),
});
export type PreviewTextDiff = z.infer<typeof PreviewTextDiff>;

/** A rule of a rendered policy, named as sensors and alerts name it. */
export const PreviewRule = z.object({
  gid: z.number().int(),
  sid: z.number().int(),
  msg: z.string(),
});
export type PreviewRule = z.infer<typeof PreviewRule>;

/** What moves in the device's policy (its Suricata rules and thresholds). */
export const PreviewPolicyChange = z.object({
  /** The policy the device runs before and after (null: none). */
  from: z.object({ id: z.number().int(), name: z.string(), version: z.number().int() }).nullable(),
  to: z.object({ id: z.number().int(), name: z.string(), version: z.number().int() }).nullable(),
  added: z.number().int(),
  removed: z.number().int(),
  /** Same gid:sid, other text. */
  changed: z.number().int(),
  /** Up to PREVIEW_RULES_LISTED of each, by gid:sid. */
  added_rules: z.array(PreviewRule),
  removed_rules: z.array(PreviewRule),
  changed_rules: z.array(PreviewRule),
  thresholds_diff: PreviewTextDiff.nullable(),
});
export type PreviewPolicyChange = z.infer<typeof PreviewPolicyChange>;

export const PreviewVariablesChange = z.object({
  added: z.array(z.object({ name: z.string(), value: z.string() })),
  removed: z.array(z.object({ name: z.string(), value: z.string() })),
  changed: z.array(z.object({ name: z.string(), old: z.string(), new: z.string() })),
});
export type PreviewVariablesChange = z.infer<typeof PreviewVariablesChange>;

export const PreviewDevice = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Null when the device's policy does not move. */
  policy: PreviewPolicyChange.nullable(),
  nftables_diff: PreviewTextDiff.nullable(),
  routes_diff: PreviewTextDiff.nullable(),
  variables: PreviewVariablesChange.nullable(),
});
export type PreviewDevice = z.infer<typeof PreviewDevice>;

/** A device the change would cut off (the lock-out check), and the rules it would lack. */
export const PreviewLockout = z.object({
  device_id: z.number().int(),
  device_name: z.string(),
  /** As the refused save would say it. */
  message: z.string(),
  problems: z.array(z.object({ field: z.string(), msg: z.string() })),
  /** The request overrides the check (an Administrator's Apply anyway): the save would pass. */
  overridden: z.boolean(),
});
export type PreviewLockout = z.infer<typeof PreviewLockout>;

export const ChangePreview = z.object({
  /**
   * The organization's deploy mode, which says what the save does: `immediate`, devices receive
   * it at once; `staged`, it is saved, not sent, and the devices reached have it pending until
   * deployed. Staged, each device's detail is what the next deploy would send it (the pending
   * deploy diff: every saved change not yet deployed, this one included).
   */
  deploy_mode: DeployMode,
  /** Devices whose configuration or policy would move: every one, not only those detailed. */
  devices_reached: z.number().int(),
  /** Of those, how many get a new configuration (firewall, routes, variables)… */
  config_changed: z.number().int(),
  /** …and how many a new policy. */
  policy_changed: z.number().int(),
  /** The first PREVIEW_DEVICES_DETAILED devices reached, by id. */
  devices: z.array(PreviewDevice),
  /** devices_reached > devices.length: the rest are counted, not detailed. */
  devices_truncated: z.boolean(),
  /**
   * Devices the save would cut off (the first of each group rendering the same configuration
   * and reaching the server the same way, as the check runs); the save is refused unless it
   * overrides the check.
   */
  lockout: z.array(PreviewLockout),
});
export type ChangePreview = z.infer<typeof ChangePreview>;

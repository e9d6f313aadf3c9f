import { z } from 'zod';
import { Id } from './common.js';
import { DeployMode, PreviewDevice } from './preview.js';

// Staged deploys (issue 18 item 6): see DeployMode (in preview.ts, which says which applied).

/** GET/PUT /organization/settings: the organization's deploy settings (Administrators). */
export const OrganizationSettings = z.object({
  deploy_mode: DeployMode,
  /** How long canary devices run the change before the gate decides. */
  canary_wait_minutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60),
  /** A canary fails when its alert rate exceeds this many times its rate before the deploy. */
  canary_alert_factor: z.number().min(1).max(1000),
  /** A canary fails when it has sent no heartbeat for this long after the deploy. */
  canary_heartbeat_grace_seconds: z
    .number()
    .int()
    .min(10)
    .max(24 * 3600),
});
export type OrganizationSettings = z.infer<typeof OrganizationSettings>;

export const OrganizationSettingsUpdate = OrganizationSettings.partial().strict();
export type OrganizationSettingsUpdate = z.infer<typeof OrganizationSettingsUpdate>;

export const DEFAULT_ORGANIZATION_SETTINGS: OrganizationSettings = {
  deploy_mode: 'immediate',
  canary_wait_minutes: 15,
  canary_alert_factor: 3,
  canary_heartbeat_grace_seconds: 180,
};

/** What a canary gate checks; a failed gate names the one that failed. */
export const CanaryCondition = z.enum([
  'not_applied',
  'apply_failed',
  'heartbeat_lost',
  'alert_rate',
]);
export type CanaryCondition = z.infer<typeof CanaryCondition>;

/**
 * A deployment's life: `canary` (canary devices moved, the gate waits), `deployed` (every
 * device moved), `rolled_back` (the gate failed: canary devices moved back, the rest never
 * moved).
 */
export const DeploymentStatus = z.enum(['canary', 'deployed', 'rolled_back']);
export type DeploymentStatus = z.infer<typeof DeploymentStatus>;

/** The versions a device is served: its policy's and its configuration's. */
export const DeployedVersions = z.object({
  config_version: z.number().int(),
  policy_id: z.number().int().nullable(),
  policy_version: z.number().int(),
});
export type DeployedVersions = z.infer<typeof DeployedVersions>;

/**
 * POST /deployments: these devices (or every device with a pending change), canaries first.
 * Refused (422 `lockout`) when what it would send a device cuts that device off from the
 * server, canary or not, unless an Administrator overrides the check.
 */
export const DeploymentCreate = z.union([
  z
    .object({
      device_ids: z.array(Id).min(1).max(10_000),
      canary: z
        .object({ device_ids: z.array(Id).min(1).max(10_000) })
        .strict()
        .optional() /** An Administrator sends a deploy the lock-out check refused (as a save may). */,
      override_lockout: z.boolean().optional(),
    })
    .strict(),
  z
    .object({
      all: z.literal(true),
      canary: z
        .object({ device_ids: z.array(Id).min(1).max(10_000) })
        .strict()
        .optional() /** An Administrator sends a deploy the lock-out check refused (as a save may). */,
      override_lockout: z.boolean().optional(),
    })
    .strict(),
]);
export type DeploymentCreate = z.infer<typeof DeploymentCreate>;

/** Why a canary gate failed: which device, which condition, in words. */
export const GateFailure = z.object({
  device_id: z.number().int(),
  device_name: z.string(),
  condition: CanaryCondition,
  detail: z.string(),
});
export type GateFailure = z.infer<typeof GateFailure>;

export const DeploymentDevice = z.object({
  device_id: z.number().int(),
  device_name: z.string(),
  canary: z.boolean(),
  /** What the device was served before (null when it followed every save). */
  from: DeployedVersions.nullable(),
  to: DeployedVersions,
  /** When its pointer moved to `to`; null while it waits for the gate (or never moved). */
  moved_at: z.string().nullable(),
  /** The canary's pointer was moved back to `from` after a failed gate. */
  rolled_back: z.boolean(),
});
export type DeploymentDevice = z.infer<typeof DeploymentDevice>;

export const Deployment = z.object({
  id: z.number().int(),
  status: DeploymentStatus,
  created_at: z.string(),
  created_by: z.string(),
  /** When the gate decides (canary deployments). */
  gate_due_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  failure: GateFailure.nullable(),
  device_count: z.number().int(),
  canary_count: z.number().int(),
  settings: OrganizationSettings.omit({ deploy_mode: true }),
});
export type Deployment = z.infer<typeof Deployment>;

export const DeploymentDetail = Deployment.extend({ devices: z.array(DeploymentDevice) });
export type DeploymentDetail = z.infer<typeof DeploymentDetail>;

/** GET /deployments/pending: per device, what it is served and what its saves would send. */
export const PendingDeployment = z.object({
  device_id: z.number().int(),
  device_name: z.string(),
  deployed: DeployedVersions,
  saved: DeployedVersions,
  config_changed: z.boolean(),
  policy_changed: z.boolean(),
  /** A canary deployment holds this device (it waits for the gate or runs as canary). */
  in_deployment: z.number().int().nullable(),
});
export type PendingDeployment = z.infer<typeof PendingDeployment>;

export const PendingDeployments = z.object({
  deploy_mode: DeployMode,
  data: z.array(PendingDeployment),
});
export type PendingDeployments = z.infer<typeof PendingDeployments>;

/** GET /deployments/: newest first, by page. */
export const DeploymentListQuery = z
  .object({
    limit: z.coerce.number().int().min(0).max(1000).default(50),
    offset: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
  })
  .strict();
export type DeploymentListQuery = z.output<typeof DeploymentListQuery>;

/**
 * GET /devices/{id}/pending-deploy: what a deploy would send the device, against what it runs
 * (what was deployed to it). The same shape as a change preview's device (issue 18 item 3's
 * diffs, one shape for both), plus the versions on either side.
 */
export const PendingDeviceDiff = PreviewDevice.extend({
  deployed: DeployedVersions,
  saved: DeployedVersions,
});
export type PendingDeviceDiff = z.infer<typeof PendingDeviceDiff>;

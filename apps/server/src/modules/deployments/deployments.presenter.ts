import type {
  DeployedVersions,
  Deployment,
  DeploymentDetail,
  GateFailure,
  OrganizationSettings,
  PendingDeployment,
} from '@palisade/contract';
import type {
  DeploymentDeviceRow,
  DeploymentRow,
  PendingRow,
  SettingsRow,
  VersionsRow,
} from './deployments.repository.js';

export const presentSettings = (row: SettingsRow): OrganizationSettings => ({
  deploy_mode: row.deploy_mode,
  canary_wait_minutes: row.canary_wait_minutes,
  canary_alert_factor: Number(row.canary_alert_factor),
  canary_heartbeat_grace_seconds: row.canary_heartbeat_grace_seconds,
});

export const presentVersions = (row: VersionsRow): DeployedVersions => ({
  config_version: row.config_version,
  policy_id: row.policy_id,
  policy_version: row.policy_version,
});

/** The pointer's content differs from what was saved: the device has something to deploy. */
export const configChanged = (row: PendingRow) =>
  row.deployed !== null && row.deployed.config_sha256 !== row.saved.config_sha256;
export const policyChanged = (row: PendingRow) =>
  row.deployed !== null &&
  (row.deployed.policy_id !== row.saved.policy_id ||
    row.deployed.policy_sha256 !== row.saved.policy_sha256);

export const presentPending = (row: PendingRow): PendingDeployment => ({
  device_id: row.device_id,
  device_name: row.device_name,
  deployed: presentVersions(row.deployed ?? row.saved),
  saved: presentVersions(row.saved),
  config_changed: configChanged(row),
  policy_changed: policyChanged(row),
  in_deployment: row.in_deployment,
});

const iso = (time: Date | string | null) => (time === null ? null : new Date(time).toISOString());

export const presentDeployment = (row: DeploymentRow): Deployment => ({
  id: row.id,
  status: row.status,
  created_at: new Date(row.created_at).toISOString(),
  created_by: row.created_by,
  gate_due_at: iso(row.gate_due_at),
  finished_at: iso(row.finished_at),
  failure: (row.failure ?? null) as GateFailure | null,
  device_count: row.device_count,
  canary_count: row.canary_count,
  settings: {
    canary_wait_minutes: row.canary_wait_minutes,
    canary_alert_factor: Number(row.canary_alert_factor),
    canary_heartbeat_grace_seconds: row.canary_heartbeat_grace_seconds,
  },
});

export const presentDeploymentDetail = (
  row: DeploymentRow,
  devices: DeploymentDeviceRow[],
): DeploymentDetail => ({
  ...presentDeployment(row),
  devices: devices.map((device) => ({
    device_id: device.device_id,
    device_name: device.device_name,
    canary: device.canary,
    from: device.from === null ? null : presentVersions(device.from),
    to: presentVersions(device.to),
    moved_at: iso(device.moved_at),
    rolled_back: device.rolled_back,
  })),
});

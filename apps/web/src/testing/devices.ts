import type { Device, SensorHealth } from '@palisade/contract';

/** Suricata's stats as an agent reports them, for tests: a healthy sensor but for `over`. */
export const sensor = (over: Partial<SensorHealth>): SensorHealth => ({
  time: '2026-11-27T08:00:08.000000+0000',
  kernel_packets: 100_000,
  kernel_drops: 0,
  drop_percent: 0.25,
  alerts_per_min: 12.5,
  decoder_bytes: 0,
  flow_memuse: 0,
  rules_loaded: 35_671,
  rules_failed: 0,
  last_reload: null,
  ...over,
});

/** A device as the API lists it, for tests: online, in sync, no health yet, but for `over`. */
export const device = (id: number, name: string, over: Partial<Device>): Device => ({
  id,
  name,
  description: '',
  address: '',
  city: '',
  licensed: false,
  profile_id: null,
  policy_id: null,
  firewall_id: null,
  online: true,
  last_seen: '2026-11-27T08:00:08Z',
  update_pending: false,
  config_version_local: 1,
  config_version_remote: 1,
  policy_version_local: 0,
  policy_version_remote: 0,
  last_error: null,
  state: 'running',
  agent_version: '0.3.0',
  metrics: null,
  sensor: null,
  policy_rules: null,
  firewall: null,
  health: { status: 'unknown', reasons: [] },
  alerts_rejected: 0,
  agent_outdated: false,
  upgrade: null,
  updated_at: '2026-11-27T08:00:00Z',
  ...over,
});

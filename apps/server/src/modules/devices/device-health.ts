import type { DeviceHealth, HealthReason, SensorHealth } from '@palisade/contract';

/** HEALTH_DROP_PERCENT's default. */
export const DEFAULT_HEALTH_DROP_PERCENT = 1;

/**
 * A sensor is degraded when an engine failed to load rules or it drops more than
 * `dropPercent` of its packets; unknown while its agent reports no Suricata stats.
 */
export function deviceHealth(
  sensor: SensorHealth | null,
  dropPercent = DEFAULT_HEALTH_DROP_PERCENT,
): DeviceHealth {
  if (!sensor) return { status: 'unknown', reasons: [] };
  const reasons: HealthReason[] = [];
  if ((sensor.rules_failed ?? 0) > 0) reasons.push('rules_failed');
  if ((sensor.drop_percent ?? 0) > dropPercent) reasons.push('drops');
  return { status: reasons.length > 0 ? 'degraded' : 'ok', reasons };
}

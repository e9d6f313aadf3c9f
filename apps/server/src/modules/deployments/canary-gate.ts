import type { CanaryCondition, DeployedVersions } from '@palisade/contract';

/** What the gate knows of one canary device, read when it runs. */
export interface CanaryState {
  deviceId: number;
  deviceName: string;
  /** The versions the deployment moved it to. */
  target: DeployedVersions;
  /** When its pointer moved. */
  movedAt: Date;
  /** What its agent last reported applied (null: never). */
  local: { config_version: number | null; policy_version: number | null };
  /** Its last heartbeat (null: never). */
  lastSeen: Date | null;
  /** The agent's last report failed, with this error (null: none since it last applied). */
  applyError: string | null;
  /** Alerts in the window of the canary wait just before `movedAt`. */
  alertsBefore: number;
  /** Alerts since `movedAt`. */
  alertsAfter: number;
}

export interface GateParameters {
  waitMinutes: number;
  alertFactor: number;
  heartbeatGraceSeconds: number;
}

export type GateDecision =
  | { decision: 'wait' }
  | { decision: 'pass' }
  | {
      decision: 'fail';
      deviceId: number;
      deviceName: string;
      condition: CanaryCondition;
      detail: string;
    };

/**
 * A canary with no alerts before still may raise some: its rate before is taken as at least
 * one alert per wait window, so "3 times" allows 3 alerts rather than none.
 */
export const MIN_ALERTS_BEFORE = 1;

const MINUTE_MS = 60_000;

/**
 * The canary gate's decision, pure (the clock is `now`). A canary fails at once when it has
 * sent no heartbeat for the grace time since it was moved, or its agent reported the change
 * failed; once the wait is over, it fails when it has not applied the change or its alert rate
 * since the move is over `alertFactor` times its rate in the same time before. When the wait
 * is over and no canary failed, the gate passes; before that it waits. The first failure, in
 * the order the canaries are given, is the one reported.
 */
export function decideGate(
  canaries: readonly CanaryState[],
  parameters: GateParameters,
  now: Date,
): GateDecision {
  const graceMs = parameters.heartbeatGraceSeconds * 1000;
  const waitMs = parameters.waitMinutes * MINUTE_MS;
  let over = canaries.length > 0;
  for (const canary of canaries) {
    const fail = (condition: CanaryCondition, detail: string): GateDecision => ({
      decision: 'fail',
      deviceId: canary.deviceId,
      deviceName: canary.deviceName,
      condition,
      detail,
    });
    const heard = Math.max(canary.lastSeen?.getTime() ?? 0, canary.movedAt.getTime());
    const silentMs = now.getTime() - heard;
    if (silentMs > graceMs) {
      return fail(
        'heartbeat_lost',
        `no heartbeat for ${Math.round(silentMs / 1000)} s (grace ${parameters.heartbeatGraceSeconds} s)`,
      );
    }
    if (canary.applyError !== null && !applied(canary)) {
      return fail('apply_failed', `the agent reported: ${canary.applyError}`);
    }
    const elapsedMs = now.getTime() - canary.movedAt.getTime();
    if (elapsedMs < waitMs) {
      over = false;
      continue;
    }
    if (!applied(canary)) {
      return fail(
        'not_applied',
        `applied config ${canary.local.config_version ?? 'none'} / policy ${canary.local.policy_version ?? 'none'}, ` +
          `deployed config ${canary.target.config_version} / policy ${canary.target.policy_version}`,
      );
    }
    const baseline = Math.max(canary.alertsBefore, MIN_ALERTS_BEFORE);
    // Rates compared cross-multiplied: counts and milliseconds stay exact.
    if (canary.alertsAfter * waitMs > parameters.alertFactor * baseline * elapsedMs) {
      const before = baseline / waitMs;
      const after = canary.alertsAfter / elapsedMs;
      const perHour = (rate: number) => (rate * 60 * MINUTE_MS).toFixed(1);
      return fail(
        'alert_rate',
        `${perHour(after)} alerts an hour since the deploy, ${perHour(before)} before ` +
          `(allowed ${parameters.alertFactor}×)`,
      );
    }
  }
  return over ? { decision: 'pass' } : { decision: 'wait' };
}

function applied(canary: CanaryState): boolean {
  return (
    canary.local.config_version === canary.target.config_version &&
    canary.local.policy_version === canary.target.policy_version
  );
}

import type { BacktestRequest, BacktestResult, Threshold } from '@palisade/contract';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { invalid, notFound } from '../../lib/app-error.js';
import type { Principal } from '../../plugins/auth.js';
import {
  alertStreams,
  alertsPerDevice,
  signatureAlertsPerDevice,
} from '../alerts/alert-windows.js';
import { devicesRunningPolicy } from '../devices/devices.service.js';
import { profileVariables } from '../profiles/profiles.service.js';
import { signaturesOfRules } from '../rules/rules.service.js';
import { addressMatcher } from './address-match.js';
import { policiesRepository as policies } from './policies.repository.js';
import { isCounting, simulateThreshold, type CountingThreshold } from './threshold-simulation.js';

type Request = z.output<typeof BacktestRequest>;
const DAY_MS = 86_400_000;
/**
 * The most alerts one backtest replays (suppressions by address, thresholds): they are held in
 * memory and walked on the event loop, so a change naming the noisiest signatures of a big
 * store over a month is refused with this bound rather than stalling the server.
 */
export const MAX_REPLAYED_ALERTS = 500_000;
const keyOf = (gid: number, sid: number) => `${gid}:${sid}`;
const signatureOf = (key: string) => {
  const [gid = 1, sid = 0] = key.split(':').map(Number);
  return { gid, sid };
};

/** The devices running the policy, each with its profile's variables (null without one). */
async function devicesRunning(db: Queryable, orgId: number, policyId: number) {
  const devices = await devicesRunningPolicy(db, orgId, policyId);
  const profiles = devices.flatMap((d) => (d.profile_id === null ? [] : [d.profile_id]));
  const variables = await profileVariables(db, orgId, [...new Set(profiles)]);
  return devices.map((d) => ({
    id: d.id,
    name: d.name,
    variables: d.profile_id === null ? null : (variables.get(d.profile_id) ?? null),
  }));
}

/** The entries of a change, sorted by what each asks of the stored alerts. */
function planOf(request: Request, disabledSignatures: { gid: number; sid: number }[]) {
  /** Every alert of these signatures goes: a rule disabled, or suppressed for all addresses. */
  const removeAll = new Set(disabledSignatures.map((s) => keyOf(s.gid, s.sid)));
  const byAddress = new Map<string, Threshold[]>();
  const counting = new Map<string, CountingThreshold[]>();
  for (const threshold of request.thresholds) {
    const key = keyOf(threshold.gid, threshold.sid);
    if (threshold.kind === 'suppress') {
      if (threshold.ip === undefined) removeAll.add(key);
      else byAddress.set(key, [...(byAddress.get(key) ?? []), threshold]);
    } else if (isCounting(threshold)) {
      counting.set(key, [...(counting.get(key) ?? []), threshold]);
    }
    // A rate_filter changes an alert's action, not whether it is raised: nothing to count.
  }
  return { removeAll, byAddress, counting };
}

/**
 * The backtest of a tuning change (issue 20 item 1) over the stored alerts of the devices
 * running the policy: a disabled rule or an address-less suppression removes all its alerts;
 * a suppression by address removes those whose tracked address it holds (variables from each
 * device's profile); a threshold or event_filter is replayed per device as Suricata applies it
 * (threshold-simulation.ts), on the alerts no suppression removed. Any signed-in member may
 * ask; nothing is written.
 */
export function createPolicyBacktestService(
  db: Database,
  { maxReplayed = MAX_REPLAYED_ALERTS }: { maxReplayed?: number } = {},
) {
  return {
    async backtest(
      principal: Principal,
      policyId: number,
      request: Request,
    ): Promise<BacktestResult> {
      const policy = await policies.find(db, principal.orgId, policyId);
      if (!policy) throw notFound('Policy');
      const since = new Date(Date.now() - request.days * DAY_MS);
      const devices = await devicesRunning(db, principal.orgId, policyId);
      const disabledRules = request.overrides
        .filter((o) => o.action === 'disable')
        .map((o) => o.rule_id);
      const plan = planOf(request, await signaturesOfRules(db, principal.orgId, disabledRules));
      const running = new Set(devices.map((d) => d.id));
      const asked = (row: { device_id: number; gid: number; sid: number }, keys: Set<string>) =>
        running.has(row.device_id) && keys.has(keyOf(row.gid, row.sid));
      // Only the signatures the change names are read per signature; the rest of the window
      // is counted per device alone (the totals), whatever its size.
      const replayed = new Set(
        [...plan.byAddress.keys(), ...plan.counting.keys()].filter(
          (key) => !plan.removeAll.has(key),
        ),
      );
      const current = { id: policyId, version: policy.version };
      if (running.size === 0)
        return present(request.days, since, current, devices, [], [], new Map(), 0, []);
      const [deviceTotals, removedWhole, replay] = await Promise.all([
        alertsPerDevice(db, principal.orgId, [...running], since),
        plan.removeAll.size === 0
          ? []
          : signatureAlertsPerDevice(
              db,
              principal.orgId,
              since,
              [...plan.removeAll].map(signatureOf),
              current,
            ),
        replayed.size === 0
          ? { count: 0, streams: [] }
          : alertStreams(
              db,
              principal.orgId,
              since,
              [...replayed].map(signatureOf),
              current,
              maxReplayed,
            ),
      ]);
      if (replay.count > maxReplayed)
        throw invalid(
          'body.days',
          `The signatures replayed hold more than ${maxReplayed} alerts in ${request.days} days: backtest a shorter window`,
        );

      /** Removed alerts per device and signature (`device|gid:sid`). */
      const removed = new Map<string, number>();
      const add = (deviceId: number, key: string, n: number) => {
        if (n > 0) removed.set(`${deviceId}|${key}`, (removed.get(`${deviceId}|${key}`) ?? 0) + n);
      };
      // The statements match gids and sids apart, for every device: keep the pairs asked for.
      const totals = removedWhole.filter((row) => asked(row, plan.removeAll));
      for (const row of totals) add(row.device_id, keyOf(row.gid, row.sid), row.n);
      // Of what goes, the alerts raised under an earlier version of this policy: a change made
      // since may already remove them (each alert records the version its device ran).
      let removedEarlier = totals.reduce((sum, row) => sum + row.earlier, 0);
      const unresolved = new Set<string>();
      const variablesOf = new Map(devices.map((d) => [d.id, d.variables ?? {}]));
      for (const stream of replay.streams) {
        if (!asked(stream, replayed)) continue;
        const { alerts } = stream;
        const key = keyOf(stream.gid, stream.sid);
        const suppressions = plan.byAddress.get(key) ?? [];
        const matchers = suppressions.map((t) => {
          const matcher = addressMatcher(t.ip ?? 'any', variablesOf.get(stream.device_id) ?? {});
          for (const name of matcher.unresolved) unresolved.add(name);
          return matcher;
        });
        // A suppression by address first: what it holds is never counted by a threshold.
        let kept = alerts.filter(
          (alert) =>
            !suppressions.some((t, i) =>
              matchers[i]?.matches(t.track === 'by_dst' ? alert.dest_ip : alert.src_ip),
            ),
        );
        for (const threshold of plan.counting.get(key) ?? []) {
          const raised = simulateThreshold(
            kept.map((a) => ({ timeMicros: a.micros, src: a.src_ip, dest: a.dest_ip })),
            threshold,
          );
          kept = kept.filter((_, i) => raised[i]);
        }
        add(stream.device_id, key, alerts.length - kept.length);
        const stays = new Set(kept);
        removedEarlier += alerts.filter((alert) => !stays.has(alert) && alert.earlier).length;
        totals.push({
          device_id: stream.device_id,
          gid: stream.gid,
          sid: stream.sid,
          msg: stream.msg,
          n: alerts.length,
          earlier: 0,
        });
      }

      return present(
        request.days,
        since,
        current,
        devices,
        deviceTotals,
        totals,
        removed,
        removedEarlier,
        [...unresolved],
      );
    },
  };
}

function present(
  days: number,
  since: Date,
  policy: { version: number },
  devices: { id: number; name: string }[],
  deviceTotals: { device_id: number; n: number }[],
  totals: { device_id: number; gid: number; sid: number; msg: string | null; n: number }[],
  removed: Map<string, number>,
  removedEarlier: number,
  unresolved: string[],
): BacktestResult {
  const byDevice = new Map(
    devices.map((d) => [d.id, { device_id: d.id, device: d.name, removed: 0, total: 0 }]),
  );
  const bySignature = new Map<string, BacktestResult['by_signature'][number]>();
  for (const row of deviceTotals) {
    const device = byDevice.get(row.device_id);
    if (device) device.total = row.n;
  }
  for (const row of totals) {
    const key = keyOf(row.gid, row.sid);
    const gone = removed.get(`${row.device_id}|${key}`) ?? 0;
    const device = byDevice.get(row.device_id);
    if (device) device.removed += gone;
    const signature = bySignature.get(key) ?? {
      gid: row.gid,
      sid: row.sid,
      msg: row.msg,
      removed: 0,
      total: 0,
      share: 0,
    };
    signature.total += row.n;
    signature.removed += gone;
    signature.msg ??= row.msg;
    bySignature.set(key, signature);
  }
  const signatures = [...bySignature.values()]
    .filter((s) => s.removed > 0)
    .map((s) => ({ ...s, share: s.removed / s.total }))
    .sort((a, b) => b.removed - a.removed || a.sid - b.sid);
  const deviceRows = [...byDevice.values()].sort(
    (a, b) => b.removed - a.removed || a.device_id - b.device_id,
  );
  return {
    days,
    since: since.toISOString(),
    removed: deviceRows.reduce((sum, d) => sum + d.removed, 0),
    total: deviceRows.reduce((sum, d) => sum + d.total, 0),
    by_device: deviceRows,
    by_signature: signatures,
    unresolved_variables: unresolved.sort(),
    policy_version: policy.version,
    removed_earlier: removedEarlier,
  };
}

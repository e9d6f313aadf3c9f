// Firewall rule hits (issue 20, item 4). Agents report the counters of every rule of Palisade's
// filter chains in order, with the config version they run; the device's ruleset rendered for
// that version says which ruleset rule each nftables rule comes from (renderFirewall's
// `origins`), so the script carries no tags. Each rule is known by a digest of what it matches:
// its hits follow it when other rules move, and start over when it is itself changed.

import { createHash } from 'node:crypto';
import type {
  FirewallHits,
  FirewallHitsReport,
  FirewallRule,
  FirewallRuleHits,
} from '@palisade/contract';
import { renderFirewall } from '@palisade/firewall';
import type { Database, Queryable } from '../../db/client.js';
import { notFound } from '../../lib/app-error.js';
import type { Principal } from '../../plugins/auth.js';
import { deviceIdsUsingRuleset } from '../devices/devices.service.js';
import { firewallRepository } from './firewall.repository.js';
import {
  firewallHitsRepository as repo,
  type HitsSource,
  type RuleCount,
} from './firewall-hits.repository.js';

/** What a rule matches and does: its identity for hits. */
export function ruleKey(rule: FirewallRule): string {
  const { chain, action, protocol, source, destination, source_ports, destination_ports } = rule;
  const what = [chain, action, protocol, source, destination, source_ports, destination_ports];
  const states = [...rule.states].sort();
  return createHash('sha256')
    .update(JSON.stringify([...what, rule.in_interface, rule.out_interface, states]))
    .digest('hex')
    .slice(0, 32);
}

type Origins = ReturnType<typeof renderFirewall>['origins'];
/** Rendered origins kept per server: a device reports many times per config version. */
const ORIGINS_CACHED = 2000;

function render(source: HitsSource): Origins | null {
  const { problems, origins } = renderFirewall({
    rules: source.rules,
    policies: source.policies,
    variables: source.variables ?? {},
    network: source.network,
  });
  // With problems the device was sent no new script: what it runs is not this rendering.
  return problems.length === 0 ? origins : null;
}

/** Counters per rule key; null when the report does not fit the rendering. */
function countsByRule(
  report: FirewallHitsReport,
  origins: Origins,
  rules: FirewallRule[],
): RuleCount[] | null {
  const counts = new Map<string, RuleCount>();
  for (const chain of ['input', 'forward', 'output'] as const) {
    const reported = report.chains[chain];
    const from = origins[chain];
    if (reported.length !== from.length) return null;
    reported.forEach((counter, position) => {
      const index = from[position];
      const rule = index === null || index === undefined ? undefined : rules[index];
      if (!counter || !rule) return;
      const key = ruleKey(rule);
      const count = counts.get(key) ?? { rule_key: key, packets: 0, bytes: 0 };
      count.packets += counter[0];
      count.bytes += counter[1];
      counts.set(key, count);
    });
  }
  return [...counts.values()];
}

/**
 * Records devices' reports. A report is ignored (false) unless the device runs a ruleset and
 * it is of the config version the device is currently given, with as many rules per chain as
 * that renders. Renderings are cached by device and config version (both only ever grow).
 */
export function firewallHitsRecorder(db: Database) {
  const cache = new Map<string, Origins | null>();
  const originsOf = (deviceId: number, source: HitsSource) => {
    const key = `${deviceId}:${source.config_version}`;
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const found = render(source);
    if (cache.size >= ORIGINS_CACHED) cache.clear();
    cache.set(key, found);
    return found;
  };
  return async (deviceId: number, report: FirewallHitsReport): Promise<boolean> => {
    const source = await repo.source(db, deviceId);
    if (!source || source.config_version !== report.config_version) return false;
    const origins = originsOf(deviceId, source);
    if (!origins) return false;
    const counts = countsByRule(report, origins, source.rules);
    if (!counts) return false;
    await db.transaction((tx) =>
      repo.record(tx, {
        deviceId,
        rulesetId: source.firewall_id,
        loadedAt: report.loaded_at,
        counts,
      }),
    );
    return true;
  };
}

/** A ruleset's hits per rule over the last `days` days, in its rule order. */
export async function firewallHits(
  db: Queryable,
  principal: Principal,
  id: number,
  days: number,
): Promise<FirewallHits> {
  const ruleset = await firewallRepository.find(db, principal.orgId, id);
  if (!ruleset) throw notFound('Ruleset');
  const [sums, reported] = await Promise.all([
    repo.sums(db, id, days),
    deviceIdsUsingRuleset(db, id).then((devices) => repo.reported(db, id, devices)),
  ]);
  const byKey = new Map(sums.map((s) => [s.rule_key, s]));
  const seen = new Map(reported.map((r) => [r.rule_key, r.watched_30]));
  const rules = ruleset.rules.map((rule): FirewallRuleHits => {
    const key = ruleKey(rule);
    const sum = byKey.get(key);
    const wasReported = seen.has(key);
    return {
      packets: sum?.packets ?? 0,
      bytes: sum?.bytes ?? 0,
      reported: wasReported,
      // Idle only once watched for the whole 30 days: a rule added yesterday is not.
      idle: seen.get(key) === true && (sum?.packets_30 ?? 0) === 0,
    };
  });
  return { days, rules };
}

/** Deletes the hits of days no window shows any more (the retention job); how many rows. */
export const pruneFirewallHits = (db: Queryable) => repo.prune(db);

// Firewall rule hits (issue 20, item 4). Agents report the counters of every rule of Palisade's
// filter chains in order, with the config version they run; the device's ruleset rendered for
// that version says which ruleset rule each nftables rule comes from (renderFirewall's
// `origins`), so the script carries no tags. A device that runs a deployed configuration older
// than what renders now (a staged organization) is read by the rule keys its deploy kept. Each
// rule is known by a digest of what it matches: its hits follow it when other rules move, and
// start over when it is itself changed.

import { createHash } from 'node:crypto';
import type {
  ChainPolicies,
  DeviceNetwork,
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
  type ChainKeys,
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
/** Rule keys kept per server: a device reports many times per config version. */
const KEYS_CACHED = 2000;
const CHAINS = ['input', 'forward', 'output'] as const;

/** A firewall as a device's configuration renders it: the ruleset, variables and network. */
interface FirewallSource {
  rules: FirewallRule[];
  policies: ChainPolicies;
  variables: Record<string, string> | null;
  network: DeviceNetwork;
}

/** Each chain's nftables rules by the key of the ruleset rule they come from. */
function keysOf(origins: Origins, rules: FirewallRule[]): ChainKeys {
  const keyAt = (index: number | null) => {
    const rule = index === null ? undefined : rules[index];
    return rule ? ruleKey(rule) : null;
  };
  return {
    input: origins.input.map(keyAt),
    forward: origins.forward.map(keyAt),
    output: origins.output.map(keyAt),
  };
}

/** The rendering's rule keys; null when it has problems (no script is sent then). */
function render(source: FirewallSource): ChainKeys | null {
  const { problems, origins } = renderFirewall({
    rules: source.rules,
    policies: source.policies,
    variables: source.variables ?? {},
    network: source.network,
  });
  return problems.length === 0 ? keysOf(origins, source.rules) : null;
}

/** Counters per rule key; null when the report does not fit the rendering. */
function countsByRule(report: FirewallHitsReport, keys: ChainKeys): RuleCount[] | null {
  const counts = new Map<string, RuleCount>();
  for (const chain of CHAINS) {
    const reported = report.chains[chain];
    const from = keys[chain];
    if (reported.length !== from.length) return null;
    reported.forEach((counter, position) => {
      const key = from[position];
      if (!counter || !key) return;
      const count = counts.get(key) ?? { rule_key: key, packets: 0, bytes: 0 };
      count.packets += counter[0];
      count.bytes += counter[1];
      counts.set(key, count);
    });
  }
  return [...counts.values()];
}

/** A rendered configuration's ruleset, and which of its rules each filter rule comes from. */
export interface RulesetOrigins {
  rulesetId: number;
  rules: FirewallRule[];
  origins: Origins;
}

/**
 * Keeps the rule keys of configurations a deploy is about to pin devices at, by their digest,
 * from the rendering stored for the deploy: after later saves, what renders now is no longer
 * what such a device runs and reports (see firewall_hit_keys).
 */
export async function keepDeployedHitKeys(
  tx: Queryable,
  configs: readonly { configSha256: string; ruleset: RulesetOrigins }[],
): Promise<void> {
  await repo.keepDeployedKeys(
    tx,
    configs.map(({ configSha256, ruleset }) => ({
      configSha256,
      rulesetId: ruleset.rulesetId,
      keys: keysOf(ruleset.origins, ruleset.rules),
    })),
  );
}

/**
 * Records devices' reports. A report counts when it is of the configuration the device is
 * given: the one saved last, or, in a staged organization with changes not yet deployed to it,
 * the one deployed (its rule keys kept by the deploy). Otherwise, or with other numbers of rules
 * per chain than that configuration renders, it is ignored (false). Rule keys are cached by
 * device and config version (both only ever grow), and by digest for deployed ones.
 */
export function firewallHitsRecorder(db: Database) {
  const cache = new Map<string, { rulesetId: number; keys: ChainKeys } | null>();
  const cached = async (
    key: string,
    find: () => Promise<{ rulesetId: number; keys: ChainKeys } | null>,
    { keepMissing }: { keepMissing: boolean },
  ) => {
    const known = cache.get(key);
    if (known !== undefined) return known;
    const found = await find();
    if (found === null && !keepMissing) return found;
    if (cache.size >= KEYS_CACHED) cache.clear();
    cache.set(key, found);
    return found;
  };
  const keysRun = (deviceId: number, source: HitsSource, reported: number) => {
    const { deployed_version: deployed, deployed_sha256: digest } = source;
    if (deployed !== null && digest !== null && deployed !== source.config_version) {
      if (reported !== deployed) return null;
      // Not remembered missing: a deploy of the same configuration may keep its keys later.
      return cached(
        `deployed:${digest}`,
        async () => {
          const kept = await repo.deployedKeys(db, digest);
          return kept ? { rulesetId: kept.ruleset_id, keys: kept.keys } : null;
        },
        { keepMissing: false },
      );
    }
    const { firewall_id: rulesetId, rules, policies } = source;
    if (reported !== source.config_version || rulesetId === null || !rules || !policies) {
      return null;
    }
    // A rendering with problems stays one: the device was sent no script for this version.
    return cached(
      `${deviceId}:${source.config_version}`,
      () => {
        const keys = render({ ...source, rules, policies });
        return Promise.resolve(keys ? { rulesetId, keys } : null);
      },
      { keepMissing: true },
    );
  };
  return async (deviceId: number, report: FirewallHitsReport): Promise<boolean> => {
    const source = await repo.source(db, deviceId);
    if (!source) return false;
    const run = await keysRun(deviceId, source, report.config_version);
    if (!run) return false;
    const counts = countsByRule(report, run.keys);
    if (!counts) return false;
    await db.transaction((tx) =>
      repo.record(tx, {
        deviceId,
        rulesetId: run.rulesetId,
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

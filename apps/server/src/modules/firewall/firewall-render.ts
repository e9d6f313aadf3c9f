import type { ChainPolicies, DeviceNetwork, FirewallRule } from '@palisade/contract';
import {
  renderFirewall,
  renderFirewallRemoval,
  renderRoutes,
  validateRuleset,
} from '@palisade/firewall';
import { AppError } from '../../lib/app-error.js';

type Problem = { rule: number | null; field: string; message: string };

const toDetails = (problems: Problem[]) =>
  problems.map((p) => ({
    field: p.rule === null ? p.field : `rules.${p.rule}.${p.field}`,
    msg: p.message,
  }));

function refuse(problems: Problem[], what: string): never {
  const first = problems[0];
  const where = first?.rule === null || first?.rule === undefined ? '' : `rule ${first.rule + 1}, `;
  throw new AppError(
    'validation_failed',
    `${what}: ${where}${first?.field ?? ''}: ${first?.message ?? 'invalid'}`,
    toDetails(problems),
  );
}

/** Refuses a ruleset whose rules cannot render (unknown fields values, bad lists), naming rule and field. */
export function checkRuleset(rules: FirewallRule[]): void {
  const problems = validateRuleset(rules);
  if (problems.length > 0) refuse(problems, 'Invalid ruleset');
}

export interface DeviceFirewallInput {
  rules: FirewallRule[];
  policies: ChainPolicies;
  variables: Record<string, string>;
  network: DeviceNetwork;
  hasRuleset: boolean;
  /** What Palisade has sent the device before (devices.nftables_managed, routes_managed). */
  managed: { nftables: boolean; routes: boolean };
}

/**
 * The device's nftables script and route commands, and which rule each of the script's filter
 * rules comes from (`origins`, null without a script: see renderFirewall). With nothing to manage
 * (no ruleset and no NAT; no route): null for a device Palisade never managed, which is left
 * alone, and for one it did, the scripts that remove Palisade's table and routes. Problems (e.g.
 * a variable the device's profile lacks) are returned, not thrown: the console shows them and the
 * device keeps its last good configuration (a null script, never the removal).
 */
export function renderDeviceFirewall(input: DeviceFirewallInput) {
  const managesNat = input.network.source_nat.length > 0 || input.network.port_forwards.length > 0;
  const routes = renderRoutes(input.network, { managed: input.managed.routes });
  if (!input.hasRuleset && !managesNat) {
    const nftables = input.managed.nftables ? renderFirewallRemoval() : null;
    return { nftables, routes, problems: [] as Problem[], origins: null };
  }
  const { script, problems, origins } = renderFirewall({
    rules: input.rules,
    policies: input.policies,
    variables: input.variables,
    network: input.network,
  });
  const rendered = problems.length === 0;
  return {
    nftables: rendered ? script : null,
    routes,
    problems,
    origins: rendered ? origins : null,
  };
}

import type { DeviceNetwork, FirewallRule } from '@palisade/contract';
import { renderNat } from './nat.js';
import type { Problem } from './problems.js';
import { Scope } from './resolve.js';
import { routeProblems } from './routes.js';
import { planRule } from './rule.js';
import { SetRegistry } from './sets.js';

/**
 * The problems of a ruleset, disabled rules included. Without variables (no device or profile
 * yet) any well-formed `$VARIABLE` is accepted; with them, the same checks as renderFirewall.
 */
export function validateRuleset(
  rules: readonly FirewallRule[],
  variables?: Record<string, string>,
): Problem[] {
  const scope = new Scope(variables ?? null);
  return rules.flatMap((rule, index) => planRule(rule, index, scope).problems);
}

/** The problems of a device's routes and NAT (what renderFirewall reports for them). */
export function validateNetwork(
  network: DeviceNetwork,
  variables?: Record<string, string>,
): Problem[] {
  const nat = renderNat(network, new Scope(variables ?? null), new SetRegistry());
  return [...nat.problems, ...routeProblems(network)];
}

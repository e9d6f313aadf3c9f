// The whole nftables script of a device: one `table inet palisade` with named sets, the filter
// chains with their policies and rules in order, and in L3 mode the NAT chains. It is replaced
// atomically: `add table` (a no-op when it exists) + `delete table` + the new table, all in the
// one transaction of `nft -f`; no other table is touched.

import type { ChainPolicies, DeviceNetwork, FirewallRule } from '@palisade/contract';
import { renderNat } from './nat.js';
import type { Problem } from './problems.js';
import { Scope } from './resolve.js';
import { routeProblems } from './routes.js';
import { REJECT_CHAIN, emitRule, planRule } from './rule.js';
import { SetRegistry } from './sets.js';

export const TABLE = 'inet palisade';

export interface FirewallInput {
  rules: readonly FirewallRule[];
  policies: ChainPolicies;
  /** The device profile's variables (`HOME_NET` → `[10.0.0.0/8]`, `HTTP_PORTS` → `[80,8080]`). */
  variables: Record<string, string>;
  /** NAT is rendered, and routes checked, only in L3 mode. */
  network?: DeviceNetwork;
}

export interface FirewallOutput {
  /** Always a complete script; rules with problems are left out (with a comment). */
  script: string;
  problems: Problem[];
  /**
   * Per filter chain, for each nftables rule in it in order, the index of the ruleset rule it
   * comes from (null: a NAT forward rule). A rule loaded from the script is found by chain and
   * position, so the script needs no tags of its own.
   */
  origins: Record<Chain, (number | null)[]>;
}

type Chain = FirewallRule['chain'];
const CHAINS: readonly Chain[] = ['input', 'forward', 'output'];

export function renderFirewall(input: FirewallInput): FirewallOutput {
  const scope = new Scope(input.variables);
  const sets = new SetRegistry();
  const problems: Problem[] = [];
  const chains: Record<Chain, string[]> = { input: [], forward: [], output: [] };
  const origins: Record<Chain, (number | null)[]> = { input: [], forward: [], output: [] };
  let usesRejectChain = false;

  input.rules.forEach((rule, index) => {
    if (!rule.enabled) return;
    const planned = planRule(rule, index, scope);
    problems.push(...planned.problems);
    if (planned.plan === null) {
      chains[rule.chain].push(`# rule ${index} left out: it has problems`);
      return;
    }
    const emitted = emitRule(planned.plan, sets);
    usesRejectChain ||= emitted.usesRejectChain;
    chains[rule.chain].push(...emitted.lines);
    origins[rule.chain].push(...emitted.lines.map(() => index));
  });

  const network = input.network?.l3_mode === true ? input.network : null;
  const nat = network === null ? null : renderNat(network, scope, sets);
  if (network !== null && nat !== null) {
    problems.push(...nat.problems, ...routeProblems(network));
    chains.forward.unshift(...nat.forward);
    origins.forward.unshift(...nat.forward.map(() => null));
  }

  const out: string[] = [
    '#!/usr/sbin/nft -f',
    '# Palisade firewall, rendered by @palisade/firewall. Replaces table inet palisade in one',
    '# transaction and leaves every other table alone.',
    `add table ${TABLE}`,
    `delete table ${TABLE}`,
    '',
    `table ${TABLE} {`,
  ];
  const blocks: string[][] = [];
  const declarations = sets.render('\t');
  if (declarations.length > 0) blocks.push(declarations);
  if (usesRejectChain) {
    blocks.push([
      `\tchain ${REJECT_CHAIN} {`,
      '\t\tmeta l4proto tcp reject with tcp reset',
      '\t\treject with icmpx type admin-prohibited',
      '\t}',
    ]);
  }
  for (const chain of CHAINS) {
    blocks.push(
      baseChain(
        chain,
        `type filter hook ${chain} priority filter; policy ${input.policies[chain]};`,
        chains[chain],
      ),
    );
  }
  if (nat !== null && nat.prerouting.length > 0) {
    blocks.push(
      baseChain(
        'nat_prerouting',
        'type nat hook prerouting priority dstnat; policy accept;',
        nat.prerouting,
      ),
    );
  }
  if (nat !== null && nat.postrouting.length > 0) {
    blocks.push(
      baseChain(
        'nat_postrouting',
        'type nat hook postrouting priority srcnat; policy accept;',
        nat.postrouting,
      ),
    );
  }
  blocks.forEach((block, i) => {
    if (i > 0) out.push('');
    out.push(...block);
  });
  out.push('}', '');
  return { script: out.join('\n'), problems, origins };
}

/**
 * The script for a device Palisade managed before and no longer does (no ruleset, no NAT): it
 * deletes table inet palisade, and with it the NAT chains, in one transaction. The `add` makes
 * the `delete` safe when the table is already gone, so it can be applied any number of times.
 */
export function renderFirewallRemoval(): string {
  return [
    '#!/usr/sbin/nft -f',
    '# Palisade firewall, rendered by @palisade/firewall. No ruleset is assigned any more: removes',
    `# table ${TABLE} (filter and NAT chains) in one transaction and leaves every other table alone.`,
    `add table ${TABLE}`,
    `delete table ${TABLE}`,
    '',
  ].join('\n');
}

function baseChain(name: string, header: string, rules: readonly string[]): string[] {
  return [`\tchain ${name} {`, `\t\t${header}`, ...rules.map((rule) => `\t\t${rule}`), '\t}'];
}

// Firewall rendering and applying (issue 6, point 5). A 10,000-rule ruleset with a 5,000-address
// variable: render time, then render + `nft -f` beside `nft -f` of the same script alone (target
// ≤ 1.5×), beside the same rules added one `nft add rule` at a time. nft runs in a scratch
// network namespace, never on the host's tables. Prints figures and ratios; asserts nothing.
// Figures move with the machine's load: compare the ratios, measured in the same run.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ChainPolicies, FirewallRule } from '@palisade/contract';
import type { FirewallRuleInput } from '@palisade/contract';
import { renderFirewall } from '@palisade/firewall';

const RULES = 10_000;
const RUNS = 7;
/** Rules added one at a time per sample; the rest of 10,000 is extrapolated. */
const ONE_BY_ONE_SAMPLE = 200;
const NFT = '/usr/sbin/nft';
const IP = '/usr/sbin/ip';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function time(run: () => void): number {
  const t0 = performance.now();
  run();
  return (performance.now() - t0) / 1000;
}

const ms = (seconds: number) => `${(seconds * 1000).toFixed(1)} ms`;

function blocklist(count: number): string {
  const addresses: string[] = [];
  for (let i = 0; i < count; i++) {
    // Every other address, so no two merge into a range: 5,000 elements in the set.
    const n = i * 2 + 1;
    addresses.push(`100.${64 + Math.floor(n / 65536)}.${Math.floor(n / 256) % 256}.${n % 256}`);
  }
  return `[${addresses.join(',')}]`;
}

const variables: Record<string, string> = {
  HOME_NET: '[10.0.0.0/8,192.168.0.0/16,!10.99.0.0/16,2001:db8:10::/48]',
  EXTERNAL_NET: '!$HOME_NET',
  HTTP_PORTS: '[80,443,8000:8099]',
  BLOCKLIST: blocklist(5000),
};

/** A varied ruleset: per-host accepts, port lists, variables, both families, rejects, logs. */
function ruleset(count: number): FirewallRule[] {
  const chains = ['input', 'forward', 'output'] as const;
  const rules: FirewallRule[] = [
    FirewallRule.parse({ chain: 'input', action: 'accept', states: ['established', 'related'] }),
    FirewallRule.parse({ chain: 'forward', action: 'accept', states: ['established', 'related'] }),
    FirewallRule.parse({ chain: 'input', action: 'drop', source: '$BLOCKLIST', log: true }),
  ];
  for (let i = rules.length; i < count; i++) {
    const host = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const input: FirewallRuleInput = { chain: chains[i % 3] ?? 'input', action: 'accept' };
    switch (i % 8) {
      case 0:
        Object.assign(input, {
          protocol: 'tcp',
          source: host,
          destination_ports: String(1024 + (i % 5000)),
        });
        break;
      case 1:
        Object.assign(input, {
          protocol: 'udp',
          destination: `${host}/32`,
          destination_ports: '53,123',
        });
        break;
      case 2:
        Object.assign(input, {
          protocol: 'tcp_udp',
          source: '$HOME_NET',
          destination_ports: '$HTTP_PORTS',
        });
        break;
      case 3:
        Object.assign(input, {
          action: 'drop',
          source: `2001:db8:${(i & 0xffff).toString(16)}::/64`,
        });
        break;
      case 4:
        Object.assign(input, {
          action: 'reject',
          protocol: 'tcp',
          destination_ports: '23',
          log: true,
        });
        break;
      case 5:
        Object.assign(input, {
          states: ['new'],
          in_interface: input.chain === 'output' ? '' : 'eth1',
          comment: `rule ${i}`,
        });
        break;
      case 6:
        Object.assign(input, { protocol: 'icmp', source: '$EXTERNAL_NET', action: 'drop' });
        break;
      default:
        Object.assign(input, { source: `${host}, 172.16.${i & 255}.0/24, 172.17.0.1-172.17.0.9` });
    }
    rules.push(FirewallRule.parse(input));
  }
  return rules;
}

const policies = ChainPolicies.parse({ input: 'accept', forward: 'accept', output: 'accept' });
const rules = ruleset(RULES);
const renderInput = { rules, policies, variables };

// Render, after warm-up runs (the first ones pay for compiling the renderer).
for (let i = 0; i < 5; i++) renderFirewall(renderInput);
const renderTimes: number[] = [];
let script = '';
for (let i = 0; i < RUNS; i++) {
  renderTimes.push(
    time(() => {
      const out = renderFirewall(renderInput);
      if (out.problems.length > 0) throw new Error(JSON.stringify(out.problems.slice(0, 3)));
      script = out.script;
    }),
  );
}
const render = median(renderTimes);

/** The script's rules as `chain\0rule`, and the script without them (sets and empty chains). */
function split(text: string): { rules: string[]; skeleton: string[] } {
  const rules: string[] = [];
  const skeleton: string[] = [];
  let chain = '';
  for (const line of text.split('\n')) {
    const opened = /^\tchain (\S+) \{/.exec(line);
    if (opened !== null) chain = opened[1] ?? '';
    if (line.startsWith('\t}')) chain = '';
    const isRule = chain !== '' && line.startsWith('\t\t') && !line.startsWith('\t\ttype ');
    if (isRule) rules.push(`${chain}\u0000${line.trim()}`);
    else skeleton.push(line);
  }
  return { rules, skeleton };
}
const { rules: chainOf, skeleton } = split(script);
console.log(
  `ruleset: ${RULES} rules → ${chainOf.length} nftables rules (short lists written out one per rule), ${(script.length / 1024).toFixed(0)} KiB`,
);
console.log(
  `render (median of ${RUNS}): ${ms(render)} (${Math.round(RULES / render).toLocaleString('en')} rules/s)`,
);

// A 5,000-address variable is one set, matched by one rule.
const single = renderFirewall({
  rules: [FirewallRule.parse({ chain: 'input', action: 'drop', source: '$BLOCKLIST' })],
  policies,
  variables,
});
const sets = single.script.match(/^\tset \S+/gm) ?? [];
const blockRules = single.script.split('\n').filter((line) => line.includes('@BLOCKLIST_v4'));
console.log(
  `5,000-address variable: ${sets.length} set (${sets.join(', ').trim()}), ${(single.script.match(/\b100\.\d+\.\d+\.\d+/g) ?? []).length} elements, ${blockRules.length} rule: ${blockRules[0]?.trim() ?? '?'}`,
);

// Applying needs nft and a scratch namespace.
const ns = `palisade-bench-${process.pid}`;
const dir = mkdtempSync(path.join(tmpdir(), 'palisade-bench-'));
const added = spawnSync(IP, ['netns', 'add', ns], { encoding: 'utf8' });
if (added.error || added.status !== 0) {
  console.log(
    `apply: skipped, cannot create a network namespace: ${added.error?.message ?? added.stderr.trim()}`,
  );
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

const nft = (...args: string[]) =>
  execFileSync(IP, ['netns', 'exec', ns, NFT, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 28,
  });

try {
  const file = path.join(dir, 'ruleset.nft');
  writeFileSync(file, script);
  nft('-f', file); // warm-up; later runs replace a table of the same size, as on a device
  const applyAlone = median(Array.from({ length: RUNS }, () => time(() => nft('-f', file))));
  const endToEnd = median(
    Array.from({ length: RUNS }, () =>
      time(() => {
        const out = renderFirewall(renderInput);
        writeFileSync(file, out.script);
        nft('-f', file);
      }),
    ),
  );
  console.log(`nft -f of the script alone (median of ${RUNS}): ${ms(applyAlone)}`);
  console.log(
    `render + write + nft -f (median of ${RUNS}): ${ms(endToEnd)} — ${(endToEnd / applyAlone).toFixed(2)}× nft -f alone (target ≤ 1.5×)`,
  );

  // One `nft add rule` per rule, into the same table with its sets and empty chains. Sampled on an
  // empty table and on a nearly full one (nft reads the table before each command, so the cost
  // grows as rules accumulate); the total for 10,000 is the trapezoid of the two.
  const addOne = (entry: string) => {
    const [name = '', rule = ''] = entry.split('\u0000');
    nft('add', 'rule', 'inet', 'palisade', name, rule);
  };
  const sample = (fill: string[], adds: string[]): number => {
    const base = path.join(dir, 'base.nft');
    const body = skeleton
      .join('\n')
      .replace(
        /(\tchain (\S+) \{\n\t\ttype [^\n]*\n)/g,
        (header: string, _h: string, name: string) => {
          const rulesOfChain = fill
            .filter((entry) => entry.startsWith(`${name}\u0000`))
            .map((entry) => `\t\t${entry.split('\u0000')[1] ?? ''}\n`);
          return header + rulesOfChain.join('');
        },
      );
    writeFileSync(base, body);
    nft('-f', base);
    return time(() => adds.forEach(addOne)) / adds.length;
  };
  const total = chainOf.length;
  const first = sample([], chainOf.slice(0, ONE_BY_ONE_SAMPLE));
  const last = sample(
    chainOf.slice(0, total - ONE_BY_ONE_SAMPLE),
    chainOf.slice(total - ONE_BY_ONE_SAMPLE),
  );
  const estimate = ((first + last) / 2) * total;
  console.log(
    `nft add rule, one at a time: ${ms(first)}/rule on an empty table, ${ms(last)}/rule on a full one (${ONE_BY_ONE_SAMPLE} each, not all ${total}: that would take minutes)`,
  );
  console.log(
    `  → about ${estimate.toFixed(0)} s for all ${total} rules (extrapolated) — ${(estimate / endToEnd).toFixed(0)}× render + nft -f`,
  );
} finally {
  spawnSync(IP, ['netns', 'del', ns]);
  rmSync(dir, { recursive: true, force: true });
}

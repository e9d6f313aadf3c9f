// Each nftables rule of a filter chain names the ruleset rule it came from, in the order the
// script loads them: the agent's counters, read back by chain and position, find their rule.

import { describe, expect, it } from 'vitest';
import { renderFirewall } from './index.js';
import { CASES } from './testing/cases.js';

/** The rule lines of `chain` in a rendered script, in order. */
function chainRules(script: string, chain: string): string[] {
  const lines = script.split('\n');
  const start = lines.indexOf(`\tchain ${chain} {`);
  if (start < 0) return [];
  const end = lines.indexOf('\t}', start);
  return lines.slice(start + 2, end).filter((line) => !line.trimStart().startsWith('#'));
}

describe('rule origins', () => {
  for (const [name, input] of Object.entries(CASES)) {
    it(`${name}: one origin per rule of each chain`, () => {
      const { script, origins } = renderFirewall(input);
      for (const chain of ['input', 'forward', 'output'] as const) {
        expect(origins[chain]).toHaveLength(chainRules(script, chain).length);
        for (const origin of origins[chain]) {
          if (origin !== null) expect(input.rules[origin]?.chain).toBe(chain);
        }
      }
    });
  }

  it('names the rule of each line, past disabled rules and rules split in two', () => {
    const { origins } = renderFirewall({
      rules: [
        { ...rule('input', 'tcp', '22'), enabled: false },
        rule('input', 'tcp_udp', '53'),
        rule('output', 'tcp', '25'),
        rule('input', 'tcp', '80'),
      ],
      policies: { input: 'drop', forward: 'drop', output: 'accept' },
      variables: {},
    });
    expect(origins).toEqual({ input: [1, 1, 3], forward: [], output: [2] });
  });
});

function rule(chain: 'input' | 'output', protocol: 'tcp' | 'tcp_udp', port: string) {
  return {
    chain,
    action: 'accept' as const,
    protocol,
    source: '',
    destination: '',
    source_ports: '',
    destination_ports: port,
    in_interface: '',
    out_interface: '',
    states: [],
    log: false,
    counter: true,
    comment: '',
    enabled: true,
    expires_at: null,
  };
}

// Golden files: every case of testing/cases.ts renders byte for byte to __golden__/<name>.nft,
// and the real nft accepts it. UPDATE_GOLDEN=1 rewrites the files instead of comparing.

import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderFirewall, renderFirewallRemoval, renderRoutes } from './index.js';
import { CASES } from './testing/cases.js';
import { nftCheck, removeScratch } from './testing/nft.js';

const GOLDEN = join(import.meta.dirname, '__golden__');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

afterAll(removeScratch);

function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (UPDATE) writeFileSync(file, actual);
  expect(existsSync(file), `${name} is missing: run with UPDATE_GOLDEN=1`).toBe(true);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

describe('golden nftables scripts', () => {
  for (const [name, input] of Object.entries(CASES)) {
    it(`${name}: renders as recorded and nft -c accepts it`, () => {
      const { script, problems } = renderFirewall(input);
      expect(problems).toEqual([]);
      golden(`${name}.nft`, script);
      expect(nftCheck(script)).toBeNull();
    });
  }

  it('has no golden file without a case', () => {
    const expected = new Set(Object.keys(CASES).map((name) => `${name}.nft`));
    expected.add('l3-router.routes.sh');
    expected.add('removal.nft');
    expected.add('removal.routes.sh');
    expect(readdirSync(GOLDEN).filter((file) => !expected.has(file))).toEqual([]);
  });

  it('l3-router: routes render as recorded', () => {
    const network = CASES['l3-router']?.network;
    expect(network).toBeDefined();
    if (network === undefined) return;
    const routes = renderRoutes({
      ...network,
      routes: [
        ...network.routes,
        { address: 'default', gateway: '198.51.100.1', metric: null, interface: 'wan' },
        { address: '2001:db8:20::/48', gateway: '2001:db8:10::1', metric: 1024, interface: '' },
        { address: '10.30.0.7/16', gateway: '', metric: 5, interface: 'lan' },
      ],
    });
    golden('l3-router.routes.sh', routes ?? '');
  });

  it('removal: a device no longer managed gets the table deleted, and nft -c accepts it', () => {
    const script = renderFirewallRemoval();
    golden('removal.nft', script);
    expect(nftCheck(script)).toBeNull();
  });

  it('removal: the last route removed, routes render to the cleanup alone', () => {
    const network = CASES['l3-router']?.network;
    expect(network).toBeDefined();
    if (network === undefined) return;
    golden('removal.routes.sh', renderRoutes({ ...network, routes: [] }, { managed: true }) ?? '');
  });
});

describe('the script as a whole', () => {
  it('replaces only table inet palisade: add + delete + definition, no flush ruleset', () => {
    const { script } = renderFirewall(CASES['l3-router'] ?? CASES.empty!);
    const tableLines = script
      .split('\n')
      .filter((line) => /\btable\b/.test(line) && !line.startsWith('#'));
    expect(tableLines).toEqual([
      'add table inet palisade',
      'delete table inet palisade',
      'table inet palisade {',
    ]);
    expect(script).not.toMatch(/flush ruleset/);
  });

  it('the removal script deletes only table inet palisade, safely when it is already gone', () => {
    const lines = renderFirewallRemoval()
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(lines).toEqual(['add table inet palisade', 'delete table inet palisade']);
  });

  it('writes no anonymous set in any rule (each would be a kernel set of its own)', () => {
    for (const input of Object.values(CASES)) {
      const ruleLines = renderFirewall(input)
        .script.split('\n')
        .filter((line) => line.startsWith('\t\t') && !/^\t\t(type|flags|elements) /.test(line));
      expect(ruleLines.filter((line) => line.includes('{'))).toEqual([]);
    }
  });

  it('a 5,000-address variable becomes one set and one rule', () => {
    const addresses = Array.from(
      { length: 5000 },
      (_, i) => `10.${Math.floor(i / 250)}.${i % 250}.${(i * 7) % 2 === 0 ? 1 : 3}`,
    );
    const { script, problems } = renderFirewall({
      rules: [
        {
          chain: 'input',
          action: 'drop',
          protocol: 'any',
          source: '$BLOCKLIST',
          destination: '',
          source_ports: '',
          destination_ports: '',
          in_interface: '',
          out_interface: '',
          states: [],
          log: false,
          counter: true,
          comment: '',
          enabled: true,
        },
      ],
      policies: { input: 'accept', forward: 'accept', output: 'accept' },
      variables: { BLOCKLIST: `[${addresses.join(',')}]` },
    });
    expect(problems).toEqual([]);
    expect(script.match(/^\tset /gm)).toEqual(['\tset ']);
    expect(script).toContain('\tset BLOCKLIST_v4 {');
    const rules = script.split('\n').filter((line) => line.includes('@BLOCKLIST_v4'));
    expect(rules).toEqual(['\t\tip saddr @BLOCKLIST_v4 counter drop']);
    expect(script.match(/\b10\.\d+\.\d+\.\d+\b/g)?.length).toBe(5000);
    expect(nftCheck(script)).toBeNull();
  });
});

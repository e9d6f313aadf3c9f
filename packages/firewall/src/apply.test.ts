// Applying a rendered script for real, in a scratch network namespace: other tables stay as they
// were, Palisade's table is replaced on every apply, a script that fails changes nothing, and
// the removal script deletes Palisade's table (and only it), however often it runs.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFirewall, renderFirewallRemoval } from './index.js';
import { CASES } from './testing/cases.js';
import {
  IP,
  NFT,
  deleteNamespaces,
  inNs,
  netnsUnavailable,
  reapStaleNamespaces,
  removeScratch,
  run,
  writeScratch,
} from './testing/nft.js';

const unavailable = netnsUnavailable();
const NS = `palisade-apply-${process.pid}`;

const OTHER = `table inet other {
	set keep {
		type ipv4_addr
		elements = { 192.0.2.1 }
	}
	chain input {
		type filter hook input priority 10; policy accept;
		ip saddr @keep counter accept
	}
}
table ip nat {
	chain postrouting {
		type nat hook postrouting priority 100; policy accept;
		oifname "nowhere" masquerade
	}
}
`;

function apply(script: string): void {
  inNs(NS, NFT, ['-f', writeScratch('apply.nft', script)]);
}

function render(name: keyof typeof CASES): string {
  const input = CASES[name];
  if (input === undefined) throw new Error(`no case ${name}`);
  const { script, problems } = renderFirewall(input);
  expect(problems).toEqual([]);
  return script;
}

describe.skipIf(unavailable !== null)(
  `nft -f in a network namespace${unavailable === null ? '' : ` (skipped: ${unavailable})`}`,
  { timeout: 60_000 },
  () => {
    let otherBefore = '';

    beforeAll(() => {
      reapStaleNamespaces();
      deleteNamespaces([NS]);
      run(IP, ['netns', 'add', NS]);
      apply(OTHER);
      otherBefore = listOther();
    });

    afterAll(() => {
      deleteNamespaces([NS]);
      removeScratch();
    });

    const listOther = () =>
      inNs(NS, NFT, ['list', 'table', 'inet', 'other']) +
      inNs(NS, NFT, ['list', 'table', 'ip', 'nat']);
    const tables = () => inNs(NS, NFT, ['list', 'tables']).trim().split('\n').sort();
    const palisade = () => inNs(NS, NFT, ['list', 'table', 'inet', 'palisade']);

    it('creates table inet palisade next to the other tables, which stay as they were', () => {
      apply(render('host-basics'));
      expect(tables()).toEqual(['table inet other', 'table inet palisade', 'table ip nat']);
      expect(palisade()).toContain('set ADMIN_NET_v4');
      expect(listOther()).toBe(otherBefore);
    });

    it('applying the same script again changes nothing', () => {
      const before = palisade();
      apply(render('host-basics'));
      expect(palisade()).toBe(before);
    });

    it('replaces the palisade table on re-apply with another ruleset', () => {
      apply(render('l3-router'));
      const now = palisade();
      expect(now).not.toContain('ADMIN_NET_v4');
      expect(now).toContain('chain nat_postrouting');
      expect(now).toContain('dnat ip to 10.10.1.20:80');
      expect(tables()).toEqual(['table inet other', 'table inet palisade', 'table ip nat']);
      expect(listOther()).toBe(otherBefore);
    });

    it('a script that fails half way leaves everything as it was (one transaction)', () => {
      const before = palisade();
      const broken = render('host-basics').replace(
        '\tchain output {',
        '\tchain output {\n\t\tip saddr @NO_SUCH_SET accept',
      );
      expect(() => apply(broken)).toThrow();
      expect(palisade()).toBe(before);
      expect(listOther()).toBe(otherBefore);
    });

    it('the removal script deletes table inet palisade, NAT chains and all, and nothing else', () => {
      expect(palisade()).toContain('chain nat_postrouting');
      apply(renderFirewallRemoval());
      expect(tables()).toEqual(['table inet other', 'table ip nat']);
      expect(listOther()).toBe(otherBefore);
    });

    it('the removal script applied again, with the table already gone, succeeds and changes nothing', () => {
      apply(renderFirewallRemoval());
      expect(tables()).toEqual(['table inet other', 'table ip nat']);
      expect(listOther()).toBe(otherBefore);
    });
  },
);

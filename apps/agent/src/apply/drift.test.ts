// The normalisation that decides drift: what nft changes by itself (handles, counter values,
// its own version) never counts; a rule, a set element or a policy does.

import { describe, expect, it } from 'vitest';
import { chainCounters, listingSha256 } from './drift.js';

const listing = (over: { packets?: number; handle?: number; port?: number; policy?: string }) => ({
  nftables: [
    { metainfo: { version: '1.0.6', json_schema_version: 1 } },
    { table: { family: 'inet', name: 'palisade', handle: over.handle ?? 1 } },
    {
      chain: {
        family: 'inet',
        table: 'palisade',
        name: 'input',
        handle: 1,
        hook: 'input',
        policy: over.policy ?? 'accept',
      },
    },
    {
      rule: {
        family: 'inet',
        table: 'palisade',
        chain: 'input',
        handle: (over.handle ?? 1) + 2,
        expr: [
          { match: { op: '==', left: { payload: { field: 'dport' } }, right: over.port ?? 23 } },
          { counter: { packets: over.packets ?? 0, bytes: (over.packets ?? 0) * 60 } },
          { drop: null },
        ],
      },
    },
  ],
});

describe('firewall listing hash', () => {
  it('ignores counters, handles and the nft version', () => {
    const base = listingSha256(listing({}));
    expect(listingSha256(listing({ packets: 1234 }))).toBe(base);
    expect(listingSha256(listing({ handle: 40 }))).toBe(base);
  });

  it('changes with a rule or a policy', () => {
    const base = listingSha256(listing({}));
    expect(listingSha256(listing({ port: 25 }))).not.toBe(base);
    expect(listingSha256(listing({ policy: 'drop' }))).not.toBe(base);
  });
});

describe('chain counters', () => {
  it("lists every rule of Palisade's filter chains in order, null without a counter", () => {
    const rule = (chain: string, expr: object[], table = 'palisade') => ({
      rule: { family: 'inet', table, chain, handle: 9, expr },
    });
    const counted = (packets: number) => ({ counter: { packets, bytes: packets * 100 } });
    expect(
      chainCounters({
        nftables: [
          rule('input', [counted(5), { accept: null }]),
          rule('reject_with', [counted(7)]),
          rule('input', [{ accept: null }]),
          rule('output', [counted(2), { drop: null }]),
          rule('input', [counted(1)], 'othertool'),
        ],
      }),
    ).toEqual({ input: [[5, 500], null], forward: [], output: [[2, 200]] });
  });
});

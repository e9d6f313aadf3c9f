import { describe, expect, it } from 'vitest';
import { flowbitUse } from './flowbits.js';
import { parseRule } from './parse-rule.js';

describe('flowbitUse', () => {
  it.each([
    [['set,a'], { checks: [], writes: ['a'], noalert: false }],
    [['isset,a', 'noalert'], { checks: ['a'], writes: [], noalert: true }],
    [['isnotset, a|b '], { checks: ['a', 'b'], writes: [], noalert: false }],
    [
      ['set,a&b', 'unset,c', 'toggle,d', 'setx,e'],
      { checks: [], writes: ['a', 'b', 'c', 'd', 'e'], noalert: false },
    ],
    [['set,a,group'], { checks: [], writes: ['a'], noalert: false }],
    [['isset'], { checks: [], writes: [], noalert: false }],
    [['frobnicate,a'], { checks: [], writes: [], noalert: false }],
  ])('%j', (flowbits, use) => {
    expect(flowbitUse(flowbits)).toEqual(use);
  });

  it('reads what the parser extracts from a rule', () => {
    const { rule } = parseRule(
      '# alert tcp any any -> any any (msg:"x"; flowbits:set,ET.a; flowbits:noalert; sid:1;)',
    );
    expect(rule && flowbitUse(rule.flowbits)).toEqual({
      checks: [],
      writes: ['ET.a'],
      noalert: true,
    });
  });
});

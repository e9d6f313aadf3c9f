// The deliberate-difference explanations fire on what they describe and nothing else.

import { describe, expect, it } from 'vitest';
import { parseRule } from '../index.js';
import type { Rule } from '../index.js';
import type { OracleRule } from './corpus.js';
import {
  referenceOptionNames,
  referenceQuirk,
  whyFieldsDiffer,
  whyReferenceRefuses,
  whyWeRefuse,
} from './deliberate.js';

function rule(text: string): Rule {
  const parsed = parseRule(text).rule;
  if (parsed === null) throw new Error(`not a rule: ${text}`);
  return parsed;
}

function record(overrides: Partial<OracleRule>): OracleRule {
  return {
    file: 'x.rules',
    line: 1,
    enabled: true,
    action: 'alert',
    proto: 'tcp',
    source_addr: '$HOME_NET',
    source_port: 'any',
    direction: '->',
    dest_addr: '[10.0.0.0/8,!10.1.0.0/16]',
    dest_port: '[80,1024:]',
    msg: 'm',
    sid: 1,
    gid: 1,
    rev: 0,
    classtype: null,
    priority: 0,
    metadata: [],
    references: [],
    flowbits: [],
    header: 'alert tcp $HOME_NET any -> [10.0.0.0/8,!10.1.0.0/16] [80,1024:]',
    raw: 'alert tcp $HOME_NET any -> [10.0.0.0/8,!10.1.0.0/16] [80,1024:] (msg:"m"; sid:1;)',
    ...overrides,
  };
}

describe('deliberate differences', () => {
  it('does not explain away an ordinary rule', () => {
    expect(whyWeRefuse(record({}))).toBeNull();
    const ordinary = rule(
      'alert tcp $HOME_NET any -> any [80,443] (msg:"m"; content:"a\\;b"; sid:1;)',
    );
    expect(whyReferenceRefuses(ordinary)).toBeNull();
    expect(whyFieldsDiffer(ordinary)).toBeNull();
  });

  it.each([
    [{ dest_port: '70000' }, /above 65535/],
    [{ dest_port: '80x' }, /not a port/],
    [{ dest_port: '[80,,81]' }, /not a port/],
    [{ source_addr: 'example.com' }, /not an address/],
    [{ direction: '<-' }, /direction/],
    [{ raw: 'alert tcp a b -> c d (msg:"m";; sid:1;)' }, /empty option/],
    [{ raw: 'alert tcp a b -> c d (msg:"m"; con tent:"x"; sid:1;)' }, /not an option keyword/],
    [{ priority: 'high' }, /priority/],
    [{ rev: -1 }, /out of 0/],
    [{ sid: 2 ** 40 }, /out of 0/],
    [{ source_addr: 'any!' }, /not an address/],
    [{ raw: 'alert tcp a b -> c d (msg; sid:1;)' }, /without a value/],
  ])('explains why we refuse %j', (overrides, reason) => {
    expect(whyWeRefuse(record(overrides))).toMatch(reason);
  });

  it('explains rules the reference cannot read', () => {
    expect(whyReferenceRefuses(rule('alert http (sid:1;)'))).toMatch(/Snort 3/);
    expect(whyReferenceRefuses(rule('drop:flow tcp any any -> any any (sid:1;)'))).toMatch(
      /scoped/,
    );
    expect(whyReferenceRefuses(rule('rejectdst tcp any any -> any any (sid:1;)'))).toMatch(/list/);
    expect(whyReferenceRefuses(rule('config dns any any -> any any (sid:1;)'))).toMatch(/1\.3/);
  });

  it('explains field differences from the reference splitting inside quotes', () => {
    expect(whyFieldsDiffer(rule('alert tcp any any -> any any (msg:"a;b"; sid:1;)'))).toMatch(
      /quotes/,
    );
    expect(whyFieldsDiffer(rule('alert tcp any any -> any [1, 2] (sid:1;)'))).toMatch(/blank/);
    expect(whyFieldsDiffer(rule('alert\ttcp any any -> any any (sid:1;)'))).toMatch(/tabs/);
    expect(whyFieldsDiffer(rule('alert tcp any any -> any any (content:a\\\\; sid:1;)'))).toMatch(
      /escaped/,
    );
    expect(referenceQuirk('alert tcp any any -> any any (content:a\\;; sid:1;)')).toMatch(/jumps/);
    expect(referenceQuirk('alert tcp any any -> any any [80] (sid:1;)')).toMatch(/extra words/);
    expect(referenceOptionNames('alert ip a b -> c d (msg:"a;b"; sid:1;)')).toEqual([
      'msg',
      'b"',
      'sid',
    ]);
  });
});

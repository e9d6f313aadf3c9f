import { describe, expect, it } from 'vitest';
import { checkLockout } from './index.js';
import { defaultPolicies, rule } from './testing/cases.js';

const server = { address: '10.0.0.5', port: 8443 };
const SAFE = [
  rule({ chain: 'input', action: 'accept', in_interface: 'lo' }),
  rule({ chain: 'input', action: 'accept', states: ['established', 'related'] }),
];

describe('checkLockout', () => {
  it('an empty ruleset with input drop loses the replies and loopback', () => {
    const problems = checkLockout({ rules: [], policies: defaultPolicies, variables: {}, server });
    expect(problems.map((p) => [p.traffic, p.chain, p.rule])).toEqual([
      ['server', 'input', null],
      ['loopback', 'input', null],
    ]);
    expect(problems[0]?.message).toBe(
      'the input policy drops the replies from 10.0.0.5:8443: add an input rule accepting states established,related',
    );
  });

  it('loopback and established/related accepted: nothing is lost', () => {
    expect(checkLockout({ rules: SAFE, policies: defaultPolicies, variables: {}, server })).toEqual(
      [],
    );
  });

  it('a drop before the accepts is named, certain or not', () => {
    const rules = [
      rule({ chain: 'input', action: 'drop', protocol: 'tcp', source: '10.0.0.0/24' }),
      ...SAFE,
    ];
    const [problem] = checkLockout({ rules, policies: defaultPolicies, variables: {}, server });
    expect(problem).toMatchObject({ chain: 'input', rule: 0 });
    expect(problem?.message).toMatch(/^input rule 1 \(drop\) stops the replies/);
    const maybe = [rule({ chain: 'input', action: 'reject', in_interface: 'wan' }), ...SAFE];
    expect(
      checkLockout({ rules: maybe, policies: defaultPolicies, variables: {}, server })[0]?.message,
    ).toMatch(/^input rule 1 \(reject\) may stop/);
  });

  it('output drop needs the management rule; a variable can hold the server', () => {
    const policies = { ...defaultPolicies, output: 'drop' as const };
    const rules = [
      ...SAFE,
      rule({ chain: 'output', action: 'accept', out_interface: 'lo' }),
      rule({ chain: 'output', action: 'accept', states: ['established', 'related'] }),
    ];
    expect(checkLockout({ rules, policies, variables: {}, server }).map((p) => p.message)).toEqual([
      'the output policy drops new tcp to 10.0.0.5:8443: add an output rule accepting tcp to 10.0.0.5 port 8443, or an output policy of accept',
    ]);
    const management = rule({
      chain: 'output',
      action: 'accept',
      protocol: 'tcp',
      destination: '$MGMT_NET',
      destination_ports: '8443',
    });
    expect(
      checkLockout({
        rules: [...rules, management],
        policies,
        variables: { MGMT_NET: '10.0.0.0/24' },
        server,
      }),
    ).toEqual([]);
  });

  it('disabled rules do not count; IPv6 servers are checked in their own family', () => {
    const rules = [{ ...SAFE[1]!, enabled: false }, SAFE[0]!];
    expect(checkLockout({ rules, policies: defaultPolicies, variables: {}, server })).toHaveLength(
      1,
    );
    const v4only = [rule({ chain: 'input', action: 'accept', source: '10.0.0.0/8' }), SAFE[0]!];
    expect(
      checkLockout({
        rules: v4only,
        policies: defaultPolicies,
        variables: {},
        server: { address: 'fd00::5', port: 443 },
      }),
    ).toHaveLength(1);
    expect(
      checkLockout({ rules: v4only, policies: defaultPolicies, variables: {}, server }),
    ).toEqual([]);
  });
});

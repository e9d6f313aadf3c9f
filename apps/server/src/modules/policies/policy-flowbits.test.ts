import { describe, expect, it } from 'vitest';
import { parseConfFile } from './policy-matchers.js';
import { renderPolicy, type RenderableRule } from './policy-render.js';

const rule = (sid: number, text: string): RenderableRule => ({
  id: sid * 10,
  gid: 1,
  sid,
  text,
  enabled: !text.startsWith('#'),
  action: 'alert',
  source: 'local.rules',
  metadata: [],
});

const render = (rules: RenderableRule[], extra: Partial<Parameters<typeof renderPolicy>[0]> = {}) =>
  renderPolicy({
    rules,
    overrides: new Map(),
    matchers: [],
    thresholds: [],
    resolveFlowbits: true,
    ...extra,
  });

const checker = rule(
  1,
  'alert tcp any any -> any 80 (msg:"second stage"; flowbits:isset,ET.a; sid:1; rev:1;)',
);
const setter = rule(
  2,
  '# alert tcp any any -> any 80 (msg:"first stage"; flowbits:set,ET.a; sid:2; rev:1;)',
);

describe('flowbit resolution', () => {
  it('enables the disabled rule that sets a bit an enabled rule checks, as noalert', async () => {
    const output = await render([checker, setter]);
    expect(output.rules.split('\n').filter(Boolean)).toEqual([
      'alert tcp any any -> any 80 (msg:"second stage"; flowbits:isset,ET.a; sid:1; rev:1;)',
      'alert tcp any any -> any 80 (msg:"first stage"; flowbits:set,ET.a; noalert; sid:2; rev:1;)',
    ]);
    expect(output.ruleCount).toBe(2);
    expect(output.flowbitRules).toEqual([
      { rule_id: 20, gid: 1, sid: 2, msg: 'first stage', flowbits: ['ET.a'] },
    ]);
  });

  it('does nothing when the policy turns it off', async () => {
    const output = await render([checker, setter], { resolveFlowbits: false });
    expect(output.ruleCount).toBe(1);
    expect(output.flowbitRules).toEqual([]);
  });

  it('follows what the enabled rules need to a fixed point, and only that', async () => {
    const rules = [
      checker,
      rule(
        2,
        '# alert tcp any any -> any 80 (msg:"b"; flowbits:isset,ET.b; flowbits:set,ET.a; sid:2;)',
      ),
      rule(3, '# alert tcp any any -> any 80 (msg:"c"; flowbits:toggle,ET.b; sid:3;)'),
      // Checks a bit, but is not enabled: nothing is enabled for it.
      rule(4, '# alert tcp any any -> any 80 (msg:"d"; flowbits:isset,ET.d; sid:4;)'),
      rule(5, '# alert tcp any any -> any 80 (msg:"e"; flowbits:set,ET.d; sid:5;)'),
    ];
    const output = await render(rules);
    expect(output.flowbitRules.map((r) => r.sid)).toEqual([2, 3]);
  });

  it('reads groups of bits, unset and isnotset, and keeps a noalert the rule has', async () => {
    const rules = [
      rule(1, 'alert tcp any any -> any 80 (msg:"or"; flowbits:isset, ET.x|ET.y; sid:1;)'),
      rule(2, 'alert tcp any any -> any 80 (msg:"not"; flowbits:isnotset,ET.z; sid:2;)'),
      rule(
        3,
        '# alert tcp any any -> any 80 (msg:"x"; flowbits:set,ET.x&ET.q; flowbits:noalert; sid:3;)',
      ),
      rule(4, '# alert tcp any any -> any 80 (msg:"y"; flowbits:unset,ET.y; sid:4;)'),
      rule(5, '# alert tcp any any -> any 80 (msg:"z"; flowbits:setx,ET.z,group; sid:5;)'),
      rule(6, '# alert tcp any any -> any 80 (msg:"w"; flowbits:set,ET.w; sid:6;)'),
    ];
    const output = await render(rules);
    expect(output.flowbitRules.map((r) => [r.sid, r.flowbits])).toEqual([
      [3, ['ET.x']],
      [4, ['ET.y']],
      [5, ['ET.z']],
    ]);
    expect(output.rules).toContain('flowbits:set,ET.x&ET.q; flowbits:noalert; sid:3;)');
  });

  it('re-enables a rule a disable matcher turned off, as suricata-update does; not an override', async () => {
    const { matchers } = await parseConfFile('disable', '2\n');
    expect((await render([checker, setter], { matchers })).flowbitRules).toHaveLength(1);
    const overridden = await render([checker, setter], { overrides: new Map([[20, 'disable']]) });
    expect(overridden.flowbitRules).toEqual([]);
    expect(overridden.ruleCount).toBe(1);
  });
});

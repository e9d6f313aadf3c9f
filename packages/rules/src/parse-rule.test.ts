// Table tests over real lines of the corpus (Talos community rules, Suricata's rules and its
// test suite) and the tricky cases around them.

import { describe, expect, it } from 'vitest';
import { parseRule, ruleOptions } from './index.js';
import type { Rule } from './index.js';

function parsed(text: string): Rule {
  const { rule, diagnostics } = parseRule(text);
  expect(diagnostics).toEqual([]);
  if (rule === null) throw new Error('expected a rule');
  return rule;
}

describe('parseRule: real rules', () => {
  it('reads a disabled Snort 2 community rule', () => {
    const rule = parsed(
      '# alert tcp $HOME_NET any -> $EXTERNAL_NET any (msg:"MALWARE-BACKDOOR Infector.1.x"; flow:established,to_client; content:"WHATISIT"; depth:9; metadata:impact_flag red, ruleset community; reference:nessus,11157; classtype:misc-activity; sid:117; rev:17;)',
    );
    expect(rule).toMatchObject({
      enabled: false,
      action: 'alert',
      protocol: 'tcp',
      source: { address: '$HOME_NET', port: 'any' },
      direction: '->',
      destination: { address: '$EXTERNAL_NET', port: 'any' },
      msg: 'MALWARE-BACKDOOR Infector.1.x',
      gid: 1,
      sid: 117,
      rev: 17,
      classtype: 'misc-activity',
      priority: null,
      metadata: [
        { key: 'impact_flag', value: 'red' },
        { key: 'ruleset', value: 'community' },
      ],
      references: [{ system: 'nessus', id: '11157' }],
      flowbits: [],
    });
    expect(ruleOptions(rule).map((o) => o.keyword)).toEqual([
      'msg',
      'flow',
      'content',
      'depth',
      'metadata',
      'reference',
      'classtype',
      'sid',
      'rev',
    ]);
    expect(ruleOptions(rule)[2]).toEqual({ keyword: 'content', value: '"WHATISIT"' });
  });

  it('reads a Snort 3 rule without addresses (the reference refuses it)', () => {
    const rule = parsed(
      'alert http ( msg:"MALWARE-CNC HttpBrowser User-Agent outbound communication attmept"; flow:to_server,established; http_header:field user-agent; content:"HttpBrowser/1.0",fast_pattern,nocase; metadata:impact_flag red,ruleset community; service:http; classtype:trojan-activity; gid:1; sid:42886; rev:4; )',
    );
    expect(rule).toMatchObject({
      protocol: 'http',
      source: null,
      direction: null,
      destination: null,
      gid: 1,
      sid: 42886,
      rev: 4,
    });
    expect(ruleOptions(rule)).toContainEqual({ keyword: 'http_header', value: 'field user-agent' });
    expect(ruleOptions(rule)).toContainEqual({
      keyword: 'content',
      value: '"HttpBrowser/1.0",fast_pattern,nocase',
    });
  });

  it('reads a Snort 3 rule with Snort 3 option syntax', () => {
    const rule = parsed(
      'alert tcp $EXTERNAL_NET any -> $HOME_NET 53 ( msg:"PROTOCOL-DNS dns zone transfer via TCP detected"; flow:to_server,established; content:"|00 01 00 00 00 00 00|",depth 8,offset 6; byte_test:1,!&,0xF8,4; content:"|00 00 FC 00 01|",fast_pattern; isdataat:!1,relative; metadata:policy max-detect-ips drop,ruleset community; service:dns; classtype:attempted-recon; sid:255; rev:22; )',
    );
    expect(rule.metadata).toEqual([
      { key: 'policy', value: 'max-detect-ips drop' },
      { key: 'ruleset', value: 'community' },
    ]);
    expect(ruleOptions(rule)).toContainEqual({ keyword: 'byte_test', value: '1,!&,0xF8,4' });
  });

  it('reads a header-less decoder rule', () => {
    const rule = parsed(
      'alert ( msg:"STREAM5_SYN_ON_EST"; sid:1; gid:129; rev:2; metadata:rule-type preproc; classtype:protocol-command-decode; )',
    );
    expect(rule).toMatchObject({ protocol: null, source: null, gid: 129, sid: 1 });
  });

  it('reads a Suricata rule continued over two lines', () => {
    const text =
      'alert dnp3 any any -> any any (msg:"SURICATA DNP3 Request flood detected"; \\\n' +
      '      app-layer-event:dnp3.flooded; classtype:protocol-command-decode; sid:2270000; rev:2;)';
    const rule = parsed(text);
    expect(rule.text).toBe(text);
    expect(ruleOptions(rule)).toContainEqual({ keyword: 'app-layer-event', value: 'dnp3.flooded' });
    expect(rule.sid).toBe(2270000);
  });

  it('keeps an escaped semicolon inside a content value', () => {
    const rule = parsed(
      'alert sip any any -> any any (flow:to_server; sip.uri; content:"sip:192.168.43.100\\;transport=TCP"; sid:1;)',
    );
    expect(ruleOptions(rule)[2]).toEqual({
      keyword: 'content',
      value: '"sip:192.168.43.100\\;transport=TCP"',
    });
    expect(rule.msg).toBeNull();
  });

  it('reads port lists with open ranges', () => {
    const rule = parsed(
      'alert tcp any any -> any [135,139,445,1024:] (msg:"ET POLICY DCERPC  SVCCTL OpenSCManagerW Request"; flow:established,to_server; dcerpc.iface:367abb81-9844-35f1-ad32-98f038001003; dcerpc.opnum:15; sid:2;)',
    );
    expect(rule.destination).toEqual({ address: 'any', port: '[135,139,445,1024:]' });
  });

  it('reads flowbits, priority and a pcre with escapes', () => {
    const rule = parsed(
      'alert tcp $HOME_NET any -> $EXTERNAL_NET $HTTP_PORTS (msg:"FILE-IDENTIFY RealNetworks Realplayer .ram playlist file download request"; flow:to_server,established; content:".ra"; fast_pattern:only; http_uri; pcre:"/\\x2eram?([\\?\\x5c\\x2f]|$)/smiU"; flowbits:set,file.realplayer.playlist; flowbits:noalert; priority:3; sid:2420; rev:3;)',
    );
    expect(rule.flowbits).toEqual(['set,file.realplayer.playlist', 'noalert']);
    expect(rule.priority).toBe(3);
    expect(ruleOptions(rule)).toContainEqual({ keyword: 'http_uri', value: null });
    expect(ruleOptions(rule)).toContainEqual({
      keyword: 'pcre',
      value: '"/\\x2eram?([\\?\\x5c\\x2f]|$)/smiU"',
    });
  });

  it('reads Suricata 8 transactional direction and firewall actions', () => {
    const transactional = parsed('alert http any any => any any (requires: version >= 10; sid:3;)');
    expect(transactional.direction).toBe('=>');
    expect(ruleOptions(transactional)).toMatchObject([
      { keyword: 'requires', value: 'version >= 10' },
      {},
    ]);
    expect(
      parsed('accept:hook tcp:all any any <> any 80 (app-layer-protocol:unknown; sid:1000;)'),
    ).toMatchObject({ action: 'accept:hook', protocol: 'tcp:all', direction: '<>' });
    expect(
      parsed('accept:flow,alert http1:request_line any any -> any any (http.uri; sid:7;)'),
    ).toMatchObject({ action: 'accept:flow,alert', protocol: 'http1:request_line' });
    expect(parsed('rejectboth icmp any any -> any any (sid:2; rev:1;)').action).toBe('rejectboth');
    expect(parsed('accept:flow,pass:flow tcp:all any any -> any any (sid:8;)').action).toBe(
      'accept:flow,pass:flow',
    );
  });

  it("reads Suricata 7's config rules and Suricata 8's config:packet", () => {
    expect(
      parsed(
        'config dns any any -> any any (dns.query; content:"suricata"; config: logging disable, type tx, scope tx; sid:1;)',
      ),
    ).toMatchObject({ action: 'config', protocol: 'dns', sid: 1 });
    expect(
      parsed(
        'config:packet tcp:pre_flow any any <> any 666 (config: tracking disable, type flow, scope packet; sid:2;)',
      ),
    ).toMatchObject({ action: 'config:packet', protocol: 'tcp:pre_flow' });
  });

  it('refuses a scope its action does not take, naming the ones it does', () => {
    const refusal = (text: string) => parseRule(text).diagnostics[0]?.message;
    expect(refusal('drop:hook tcp any any -> any any (sid:1;)')).toBe(
      "action 'drop' takes the scope packet or flow, not 'hook'",
    );
    expect(refusal('config:flow tcp any any -> any any (sid:1;)')).toBe(
      "action 'config' takes the scope packet, not 'flow'",
    );
    expect(refusal('accept:flow,alert:packet tcp any any -> any any (sid:1;)')).toBe(
      "action 'alert' takes no scope ('alert:packet')",
    );
  });

  it('reads negated address lists with a top-level comma list', () => {
    const rule = parsed(
      'alert tcp 192.168.0.0/16,10.0.0.0/8,172.16.0.0/12 any -> ![192.168.0.0/16,10.0.0.0/8,172.16.0.0/12] any (msg:"tcp, has negated IP address"; sid:304;)',
    );
    expect(rule.source?.address).toBe('192.168.0.0/16,10.0.0.0/8,172.16.0.0/12');
    expect(rule.destination?.address).toBe('![192.168.0.0/16,10.0.0.0/8,172.16.0.0/12]');
    expect(rule.msg).toBe('tcp, has negated IP address');
  });
});

describe('parseRule: quoting and escapes', () => {
  it('does not end an option at a semicolon inside quotes', () => {
    const rule = parsed('alert tcp any any -> any any (msg:"a; b"; pcre:"/x;y/i"; sid:9;)');
    expect(rule.msg).toBe('a; b');
    expect(ruleOptions(rule)[1]).toEqual({ keyword: 'pcre', value: '"/x;y/i"' });
  });

  it('resolves escaped quotes, semicolons and backslashes in msg', () => {
    const rule = parsed('alert tcp any any -> any any (msg:"say \\"hi\\"\\; C:\\\\temp"; sid:9;)');
    expect(rule.msg).toBe('say "hi"; C:\\temp');
  });

  it('ends an option after an escaped backslash', () => {
    const rule = parsed('alert tcp any any -> any any (content:"a\\\\"; sid:9;)');
    expect(ruleOptions(rule)[0]).toEqual({ keyword: 'content', value: '"a\\\\"' });
  });

  it('falls back to the first semicolon when the quotes do not balance', () => {
    const rule = parsed('alert tcp any any -> any any (pcre:"/[^"]+/"; sid:9; msg:"x";)');
    expect(ruleOptions(rule).map((o) => o.keyword)).toEqual(['pcre', 'sid', 'msg']);
    expect(rule.msg).toBe('x');
  });

  it('accepts blanks around the option colon and tabs in the header', () => {
    const rule = parsed('alert\ttcp any any ->\tany any ( sid : 5 ; msg : "m" ; )');
    expect(rule).toMatchObject({ protocol: 'tcp', sid: 5, msg: 'm' });
  });
});

describe('parseRule: diagnostics', () => {
  const cases: Array<[name: string, text: string, code: string, column: number]> = [
    ['unknown action', 'alarm tcp any any -> any any (sid:1;)', 'unknown-action', 1],
    ['unknown scope', 'drop:forever tcp any any -> any any (sid:1;)', 'unknown-action', 1],
    ['missing sid', 'alert tcp any any -> any any (msg:"x";)', 'missing-sid', 30],
    // The ';' after msg is missing: the sid is read as part of msg's value; its column is named.
    ['swallowed sid', 'alert tcp any any -> any any (msg:"x" sid:9; rev:1;)', 'missing-sid', 39],
    ['sid 0', 'alert tcp any any -> any any (sid:0;)', 'bad-number', 31],
    ['sid text', 'alert tcp any any -> any any (sid:one;)', 'bad-number', 31],
    ['sid too big', 'alert tcp any any -> any any (sid:4294967296;)', 'bad-number', 31],
    ['bare msg', 'alert tcp any any -> any any (msg; sid:1;)', 'missing-value', 31],
    [')' + ' in header', 'alert tc)p any any -> any any (sid:1;)', 'incomplete-header', 9],
    ['no options', 'alert tcp any any -> any any', 'missing-options', 29],
    ['unclosed options', 'alert tcp any any -> any any (sid:1;', 'missing-options', 30],
    ['short header', 'alert tcp any any -> any (sid:1;)', 'incomplete-header', 26],
    ['bad direction', 'alert tcp any any <- any any (sid:1;)', 'bad-direction', 19],
    ['unclosed list', 'alert tcp any any -> [1.1.1.1 any (sid:1;)', 'incomplete-header', 22],
    ['bad port', 'alert tcp any 70000 -> any any (sid:1;)', 'bad-port', 15],
    ['bad range', 'alert tcp any 90:80 -> any any (sid:1;)', 'bad-port', 15],
    ['bad address', 'alert tcp any any -> www.example.com any (sid:1;)', 'bad-address', 22],
    ['unterminated option', 'alert tcp any any -> any any (sid:1)', 'unterminated-option', 31],
    ['unterminated string', 'alert tcp any any -> any any (msg:"x)', 'unterminated-string', 35],
    ['empty option', 'alert tcp any any -> any any (sid:1;; rev:1;)', 'bad-keyword', 37],
    ['trailing text', 'alert tcp any any -> any any (sid:1;) extra', 'trailing-text', 39],
    [
      'two rules',
      'alert ip any any -> any any (sid:1;)\nalert ip any any -> any any (sid:2;)',
      'trailing-text',
      37,
    ],
  ];

  it.each(cases)('%s', (_name, text, code, column) => {
    const { rule, diagnostics } = parseRule(text, { fileName: 'local.rules', line: 7 });
    expect(rule).toBeNull();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      severity: 'error',
      code,
      fileName: 'local.rules',
      line: 7,
      column,
    });
    expect(diagnostics[0]?.message.length).toBeGreaterThan(5);
  });

  it('points at the physical line of a continued rule', () => {
    const { diagnostics } = parseRule(
      'alert tcp any any -> any any (msg:"x"; \\\n  content:"y"; \\\n  sid:z;)',
      { line: 10 },
    );
    expect(diagnostics[0]).toMatchObject({ code: 'bad-number', line: 12, column: 3 });
  });
});

import { describe, expect, it } from 'vitest';
import { decodePayload, hexDump, ruleReferences } from './evidence';

describe('rule references', () => {
  it('links CVE, URL and Bugtraq references, keeps the others as text, each once', () => {
    const rule =
      'alert tcp any any -> any 80 (msg:"x"; reference:cve,2021-44228; reference:url,www.example.com/a?b=1; ' +
      'reference:bugtraq,12345; reference:url,https://example.org/x; reference:nessus,1001; ' +
      'reference:cve,2021-44228; reference:url,javascript:alert(1); sid:1;)';
    expect(ruleReferences(rule)).toEqual([
      { type: 'cve', value: '2021-44228', href: 'https://nvd.nist.gov/vuln/detail/CVE-2021-44228' },
      { type: 'url', value: 'www.example.com/a?b=1', href: 'http://www.example.com/a?b=1' },
      { type: 'bugtraq', value: '12345', href: 'https://www.securityfocus.com/bid/12345' },
      { type: 'url', value: 'https://example.org/x', href: 'https://example.org/x' },
      { type: 'nessus', value: '1001', href: null },
      { type: 'url', value: 'javascript:alert(1)', href: null },
    ]);
  });
});

describe('payload hex dump', () => {
  it('shows offset, hex and ASCII side by side, a dot for what does not print', () => {
    const bytes = decodePayload(btoa('GET / HTTP/1.1\r\nHost: x\r\n'));
    expect(bytes).not.toBeNull();
    expect(hexDump(bytes ?? new Uint8Array()).split('\n')).toEqual([
      '00000000  47 45 54 20 2f 20 48 54  54 50 2f 31 2e 31 0d 0a  GET / HTTP/1.1..',
      '00000010  48 6f 73 74 3a 20 78 0d  0a                       Host: x..',
    ]);
  });

  it('refuses what is not base64', () => {
    expect(decodePayload('not base64!')).toBeNull();
  });
});

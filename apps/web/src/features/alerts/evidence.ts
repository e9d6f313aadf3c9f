/** A rule's `reference:` as a link where its type has a well-known home (reference.config). */
export interface RuleReference {
  type: string;
  value: string;
  href: string | null;
}

const REFERENCE = /\breference\s*:\s*([a-z0-9_-]+)\s*,\s*([^;]+?)\s*;/gi;

function hrefOf(type: string, value: string): string | null {
  switch (type) {
    case 'cve': {
      const id = value.toUpperCase().startsWith('CVE-') ? value.toUpperCase() : `CVE-${value}`;
      return /^CVE-\d{4}-\d{4,}$/.test(id) ? `https://nvd.nist.gov/vuln/detail/${id}` : null;
    }
    case 'url':
      // Only web addresses: a reference could name any scheme.
      if (/^https?:\/\//i.test(value)) return value;
      return /^[\w.-]+(?:[/?#]\S*)?$/.test(value) ? `http://${value}` : null;
    case 'bugtraq':
      return /^\d+$/.test(value) ? `https://www.securityfocus.com/bid/${value}` : null;
    default:
      return null;
  }
}

/** The references of a rule's text, in order, each once. */
export function ruleReferences(ruleText: string): RuleReference[] {
  const seen = new Set<string>();
  const references: RuleReference[] = [];
  for (const match of ruleText.matchAll(REFERENCE)) {
    const type = (match[1] ?? '').toLowerCase();
    const value = match[2] ?? '';
    const key = `${type},${value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    references.push({ type, value, href: hrefOf(type, value) });
  }
  return references;
}

/** Base64 as Suricata writes `payload`; null when it is not base64. */
export function decodePayload(base64: string): Uint8Array | null {
  try {
    const binary = atob(base64);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * A hex dump, 16 bytes a line: offset, the bytes in hex, and the same bytes as ASCII (a dot
 * for what does not print), side by side.
 */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += 16) {
    const chunk = bytes.subarray(offset, offset + 16);
    const hex = Array.from(chunk, (b) => b.toString(16).padStart(2, '0'));
    const left = hex.slice(0, 8).join(' ');
    const right = hex.slice(8).join(' ');
    const ascii = Array.from(chunk, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.'));
    lines.push(
      `${offset.toString(16).padStart(8, '0')}  ${`${left}  ${right}`.padEnd(48)}  ${ascii.join('')}`,
    );
  }
  return lines.join('\n');
}

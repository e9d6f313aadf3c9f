// Strings inside an nftables script: nft reads a quoted string up to the next `"` with no
// escapes, and caps comments at 128 bytes.

const COMMENT_MAX_BYTES = 128;

/** A quoted string nft reads back verbatim (quotes → ', backslashes → /, controls → space). */
export function quote(text: string, maxBytes = COMMENT_MAX_BYTES): string {
  const clean = text
    .replace(/"/g, "'")
    .replace(/\\/g, '/')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, ' ');
  return `"${truncateBytes(clean, maxBytes)}"`;
}

function truncateBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) break;
    bytes += size;
    out += char;
  }
  return out;
}

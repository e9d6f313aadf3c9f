// Option keywords and header words repeat in every rule (`msg`, `content`, `$HOME_NET`, `any`):
// the scanner hashes such a word and reuses one string per word instead of slicing a new one.
// The table is bounded and holds only short, flat copies, never a slice of a caller's text.

const MAX_ENTRIES = 4096;
const table = new Map<number, string>();

/** s[start, end), reusing the interned copy when `hash` (of those characters) has one. */
export function internSlice(s: string, start: number, end: number, hash: number): string {
  const hit = table.get(hash);
  if (hit !== undefined && hit.length === end - start && s.startsWith(hit, start)) return hit;
  const fresh = s.slice(start, end);
  if (hit === undefined && table.size < MAX_ENTRIES && fresh.length <= 64) {
    table.set(hash, detached(fresh));
  }
  return fresh;
}

/** A copy of `s` that does not keep alive the text it was sliced from, for long-lived tables. */
export function detached(s: string): string {
  // A concatenation flattened by slice: a new string, not a view into the old one.
  return ` ${s}`.slice(1);
}

/** The hash `internSlice` expects, for callers that did not compute it while scanning. */
export function hashOf(s: string, start: number, end: number): number {
  let hash = 0;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + s.charCodeAt(i)) | 0;
  return hash;
}

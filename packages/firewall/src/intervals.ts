// Sets of integers as sorted, disjoint, non-adjacent inclusive intervals. Addresses (IPv4 and
// IPv6, as bigint) and ports share this arithmetic: union, intersection, complement.

export interface Interval {
  lo: bigint;
  hi: bigint;
}

/** Sorts and merges overlapping or adjacent intervals. */
export function normalize(intervals: readonly Interval[]): Interval[] {
  if (intervals.length === 0) return [];
  const sorted = [...intervals].sort((a, b) => (a.lo < b.lo ? -1 : a.lo > b.lo ? 1 : 0));
  const out: Interval[] = [];
  for (const next of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && next.lo <= last.hi + 1n) {
      if (next.hi > last.hi) last.hi = next.hi;
    } else {
      out.push({ lo: next.lo, hi: next.hi });
    }
  }
  return out;
}

export function union(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  return normalize([...a, ...b]);
}

/** Everything in 0..max that is not in the (normalized) set. */
export function complement(set: readonly Interval[], max: bigint): Interval[] {
  const out: Interval[] = [];
  let next = 0n;
  for (const { lo, hi } of set) {
    if (lo > next) out.push({ lo: next, hi: lo - 1n });
    next = hi + 1n;
  }
  if (next <= max) out.push({ lo: next, hi: max });
  return out;
}

/** Both sets normalized. */
export function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as Interval;
    const y = b[j] as Interval;
    const lo = x.lo > y.lo ? x.lo : y.lo;
    const hi = x.hi < y.hi ? x.hi : y.hi;
    if (lo <= hi) out.push({ lo, hi });
    if (x.hi < y.hi) i++;
    else j++;
  }
  return out;
}

export function subtract(a: readonly Interval[], b: readonly Interval[], max: bigint): Interval[] {
  return intersect(a, complement(b, max));
}

export function isFull(set: readonly Interval[], max: bigint): boolean {
  const only = set[0];
  return set.length === 1 && only !== undefined && only.lo === 0n && only.hi === max;
}

/** The prefix length when the interval is exactly one CIDR block of a `bits`-wide space. */
export function prefixLength(interval: Interval, bits: number): number | null {
  const size = interval.hi - interval.lo + 1n;
  if ((size & (size - 1n)) !== 0n) return null;
  if (interval.lo % size !== 0n) return null;
  return bits - (size.toString(2).length - 1);
}

// A small seeded generator (mulberry32) so that a simulated device behaves the same way on
// every run, and helpers to draw from the distributions the simulation needs.

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Poisson-distributed count with mean `lambda` (Knuth for small, normal for large). */
  poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * this.normal()));
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k += 1;
      p *= this.next();
    }
    return k;
  }
}

/** Cumulative Zipf weights over n ranks: a few items are common, most are rare. */
export function zipfTable(n: number, exponent = 1.1): number[] {
  const table: number[] = [];
  let sum = 0;
  for (let rank = 1; rank <= n; rank++) {
    sum += 1 / rank ** exponent;
    table.push(sum);
  }
  return table.map((v) => v / sum);
}

const sharedTables = new Map<string, readonly number[]>();

/**
 * zipfTable, computed once per (n, exponent) for the whole process: a fleet's simulated
 * devices draw from the same tables instead of each holding its own.
 */
export function sharedZipfTable(n: number, exponent = 1.1): readonly number[] {
  const key = `${n}:${exponent}`;
  let table = sharedTables.get(key);
  if (!table) {
    if (sharedTables.size >= 64) sharedTables.clear();
    table = Object.freeze(zipfTable(n, exponent));
    sharedTables.set(key, table);
  }
  return table;
}

/** Index drawn from a cumulative table. */
export function drawIndex(table: readonly number[], random: Random): number {
  const u = random.next();
  let lo = 0;
  let hi = table.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((table[mid] ?? 1) < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Stable seed from a number (a device id) and a label. */
export function seedFrom(id: number, label: string): number {
  let h = 2166136261 ^ id;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 16777619);
  return h >>> 0;
}

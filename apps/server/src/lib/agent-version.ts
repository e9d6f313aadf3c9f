const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

function parse(version: string) {
  const match = SEMVER.exec(version.trim());
  if (!match) return null;
  return {
    core: [Number(match[1]), Number(match[2]), Number(match[3])],
    pre: match[4]?.split('.') ?? [],
  };
}

function comparePre(a: string[], b: string[]): number {
  // A release ranks above its pre-releases: 1.0.0-rc.1 < 1.0.0.
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    if (x === y) continue;
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    if (numeric) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return 0;
}

/** Semver order of two versions (negative, 0, positive); null when either is not a version. */
export function compareVersions(a: string, b: string): number | null {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return null;
  for (let i = 0; i < 3; i++) {
    const diff = (x.core[i] ?? 0) - (y.core[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return comparePre(x.pre, y.pre);
}

/**
 * An agent is outdated when the version it reports is older than the server's. An unknown
 * (never reported, or not a version) agent is not: nothing says it is older.
 */
export function isOutdated(reported: string | null, current: string | null): boolean {
  if (reported === null || current === null) return false;
  return (compareVersions(reported, current) ?? 0) < 0;
}

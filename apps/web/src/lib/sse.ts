/** Reconnection delay after `failures` failed attempts in a row: base × 2ⁿ, capped, jittered. */
export function backoffMs(failures: number, baseMs: number, random = Math.random): number {
  const capped = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.min(failures, 10));
  return Math.round(capped * (0.75 + random() * 0.5));
}

export const MAX_BACKOFF_MS = 30_000;

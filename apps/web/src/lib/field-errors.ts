import { ApiError } from './api-client';

/**
 * The server's per-field problems of a 422 under one prefix, keyed by what follows it:
 * `variables.HOME_NET` under `variables` → `HOME_NET`; `rules.1.destination_ports` under
 * `rules` → `1.destination_ports`. The first message of a field wins.
 */
export function fieldErrors(error: unknown, prefix: string): Map<string, string> {
  const found = new Map<string, string>();
  if (!(error instanceof ApiError) || error.status !== 422) return found;
  for (const { field, msg } of error.details) {
    if (!field.startsWith(`${prefix}.`)) continue;
    const rest = field.slice(prefix.length + 1);
    if (!found.has(rest)) found.set(rest, msg);
  }
  return found;
}

/** The index a detail names first (`1.destination_ports` → 1), or null. */
export function leadingIndex(rest: string): number | null {
  const match = /^(\d+)(\.|$)/.exec(rest);
  return match === null ? null : Number(match[1]);
}

import type { RuleSourceUpdateStatus, RuleSourceUpdateSummary } from '@palisade/contract';

/** While an update waits or runs, the screens poll it this often. */
export const UPDATE_POLL_MS = 1_000;

export const isUpdateActive = (status: RuleSourceUpdateStatus | undefined): boolean =>
  status === 'queued' || status === 'running';

/** Poll interval for a query holding updates: on while any of them is queued or running. */
export const pollWhileActive = (
  updates: readonly (Pick<RuleSourceUpdateSummary, 'status'> | null | undefined)[],
): number | false => (updates.some((u) => isUpdateActive(u?.status)) ? UPDATE_POLL_MS : false);

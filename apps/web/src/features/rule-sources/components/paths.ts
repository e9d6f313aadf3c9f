import type { RuleSourceStatusFilter } from '@palisade/contract';

/** Where a source's history and an update's changelog live: tabs of /policies (spec routes). */
export const sourcesPath = (status?: RuleSourceStatusFilter) =>
  `/policies?tab=sources${status === undefined ? '' : `&status=${status}`}`;

export const historyPath = (sourceId: number) => `/policies?tab=sources&source=${sourceId}`;

export const changelogPath = (sourceId: number, updateId: number, sid?: number) =>
  `/policies?tab=sources&source=${sourceId}&update=${updateId}${sid === undefined ? '' : `&sid=${sid}`}`;

import type {
  RuleChangeKind,
  RuleSourceStatusFilter,
  RuleSourceUpdatePhase,
  RuleSourceUpdateStatus,
} from '@palisade/contract';

/** Translation keys of the contract's enums, written out so the locale check finds them. */
export const STATUS_LABELS = {
  queued: 'ruleSources.status.queued',
  running: 'ruleSources.status.running',
  succeeded: 'ruleSources.status.succeeded',
  unchanged: 'ruleSources.status.unchanged',
  failed: 'ruleSources.status.failed',
} as const satisfies Record<RuleSourceUpdateStatus, string>;

/** The list's filter by the last update (a succeeded one may have found nothing new). */
export const STATUS_FILTER_LABELS = {
  failed: 'ruleSources.statusFilter.failed',
  succeeded: 'ruleSources.statusFilter.succeeded',
  running: 'ruleSources.statusFilter.running',
  never: 'ruleSources.statusFilter.never',
} as const satisfies Record<RuleSourceStatusFilter, string>;

export const PHASE_LABELS = {
  fetching: 'ruleSources.phase.fetching',
  importing: 'ruleSources.phase.importing',
  rendering: 'ruleSources.phase.rendering',
} as const satisfies Record<RuleSourceUpdatePhase, string>;

export const KIND_LABELS = {
  added: 'ruleSources.kind.added',
  removed: 'ruleSources.kind.removed',
  changed: 'ruleSources.kind.changed',
  enabled: 'ruleSources.kind.enabled',
  disabled: 'ruleSources.kind.disabled',
} as const satisfies Record<RuleChangeKind, string>;

import type {
  RuleChangeKind,
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

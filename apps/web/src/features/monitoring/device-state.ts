import type { TFunction } from 'i18next';

/** The states an agent reports in its heartbeat (apps/agent's Applier). */
const LABELS = {
  running: 'monitoring.stateValue.running',
  applying: 'monitoring.stateValue.applying',
  error: 'monitoring.stateValue.error',
} as const;

const isKnown = (state: string): state is keyof typeof LABELS => Object.hasOwn(LABELS, state);

/**
 * A device's reported state in the reader's language; a state this console does not know (an
 * older or newer agent's) is shown as the agent sent it, and no state as a dash.
 */
export function deviceStateLabel(state: string | null, t: TFunction): string {
  if (state === null || state === '') return '–';
  return isKnown(state) ? t(LABELS[state]) : state;
}

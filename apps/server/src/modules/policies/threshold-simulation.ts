import type { Threshold } from '@palisade/contract';

/**
 * What a threshold.config entry would have done to alerts already raised (issue 20, the
 * backtest): Suricata's own threshold logic (detect-engine-threshold.c, `ThresholdHandlePacket`)
 * replayed over one sensor's alerts of one signature, oldest first. Each sensor keeps its own
 * threshold state, so callers simulate per device.
 *
 * - `limit`: the first `count` alerts of a window of `seconds` that opens at the first alert
 *   after the last window ended.
 * - `threshold`: every `count`-th alert of a window; the count starts again at each alert raised,
 *   and the window does not move until it ends (an alert past its end opens a new one, counted
 *   as 1 and not raised).
 * - `both`: the `count`-th alert of each window only.
 * - `rate_filter` changes an alert's action, never whether it is raised: it removes nothing.
 *
 * A window holds an alert whose time is before its start plus `seconds`, compared to the
 * microsecond as Suricata compares packet times.
 */

/**
 * One stored alert, as the simulation needs it: its time in microseconds since the epoch (a
 * whole number, exact in a double until the year 2255) and its addresses.
 */
export interface SimulatedAlert {
  timeMicros: number;
  src: string | null;
  dest: string | null;
}

/** The rate-limiting kinds of entry (a suppression is an address match, not a count). */
export type CountingThreshold = Threshold & {
  kind: 'threshold' | 'event_filter';
  type: 'limit' | 'threshold' | 'both';
  track: 'by_src' | 'by_dst' | 'by_rule' | 'by_both';
  count: number;
  seconds: number;
};

export function isCounting(threshold: Threshold): threshold is CountingThreshold {
  return (
    (threshold.kind === 'threshold' || threshold.kind === 'event_filter') &&
    threshold.type !== undefined &&
    threshold.track !== undefined &&
    threshold.count !== undefined &&
    threshold.seconds !== undefined
  );
}

interface Entry {
  windowStart: number;
  count: number;
}

const MICROS = 1_000_000;

/** Whose alerts share a count: the source, the destination, the pair, or the whole rule. */
function trackerOf(alert: SimulatedAlert, track: CountingThreshold['track']): string {
  switch (track) {
    case 'by_src':
      return alert.src ?? '';
    case 'by_dst':
      return alert.dest ?? '';
    case 'by_both':
      return `${alert.src ?? ''}|${alert.dest ?? ''}`;
    case 'by_rule':
      return '';
  }
}

/**
 * For one sensor's alerts of one signature in time order: whether each would still have been
 * raised under `threshold` (true) or held back by it (false).
 */
export function simulateThreshold(
  alerts: SimulatedAlert[],
  threshold: CountingThreshold,
): boolean[] {
  const { type, count: limit } = threshold;
  const span = threshold.seconds * MICROS;
  const entries = new Map<string, Entry>();
  return alerts.map((alert) => {
    const key = trackerOf(alert, threshold.track);
    const entry = entries.get(key);
    const time = alert.timeMicros;
    if (entry === undefined) {
      // `threshold` with a count of 1 keeps no entry: every alert is raised.
      if (!(type === 'threshold' && limit === 1)) entries.set(key, { windowStart: time, count: 1 });
      return type === 'limit' || limit === 1;
    }
    if (time < entry.windowStart + span) {
      entry.count += 1;
      switch (type) {
        case 'limit':
          return entry.count <= limit;
        case 'threshold':
          if (entry.count < limit) return false;
          entry.count = 0;
          return true;
        case 'both':
          return entry.count === limit;
      }
    }
    // The window ended: this alert opens the next one.
    entry.windowStart = time;
    entry.count = 1;
    return type === 'limit' || (type === 'both' && limit === 1);
  });
}

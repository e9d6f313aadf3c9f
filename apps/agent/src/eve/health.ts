// Sensor health from Suricata's `stats` events in eve.json: the latest counters, and the drop
// share and alert rate between the last two events. Suricata's counters are cumulative since it
// started, so a rate is a difference; a restart (uptime or a counter going back) starts them
// over from zero, and the first event after it counts from zero too. Pure: no I/O.

import type { SensorHealth } from '@palisade/contract';
import type { EveEvent } from './tailer.js';

interface Counters {
  at: number;
  uptime: number | null;
  packets: number;
  drops: number;
  alerts: number | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A non-negative integer counter at `path` in `root`, or null. */
function counter(root: unknown, ...path: string[]): number | null {
  let value: unknown = root;
  for (const key of path) value = isRecord(value) ? value[key] : undefined;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? Math.floor(value)
    : null;
}

function engines(stats: Record<string, unknown>) {
  const detect = stats.detect;
  const list = isRecord(detect) && Array.isArray(detect.engines) ? detect.engines : [];
  let loaded: number | null = null;
  let failed: number | null = null;
  let reload: string | null = null;
  for (const engine of list) {
    if (!isRecord(engine)) continue;
    loaded = (loaded ?? 0) + (counter(engine, 'rules_loaded') ?? 0);
    failed = (failed ?? 0) + (counter(engine, 'rules_failed') ?? 0);
    const at = engine.last_reload;
    if (typeof at === 'string' && at.length <= 100 && (reload === null || at > reload)) reload = at;
  }
  return { rules_loaded: loaded, rules_failed: failed, last_reload: reload };
}

/** Was Suricata restarted between `before` and `now`? */
function restarted(before: Counters, now: Counters): boolean {
  if (before.uptime !== null && now.uptime !== null && now.uptime < before.uptime) return true;
  if (now.packets < before.packets || now.drops < before.drops) return true;
  return before.alerts !== null && now.alerts !== null && now.alerts < before.alerts;
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

export class SensorHealthTracker {
  private previous: Counters | undefined;
  private latest: SensorHealth | undefined;

  /** The last stats event's health; undefined before the first one. */
  get current(): SensorHealth | undefined {
    return this.latest;
  }

  /** Takes in a `stats` event; others, and stats without a valid timestamp, are ignored. */
  observe(event: EveEvent): void {
    const stats = event.stats;
    const time = event.timestamp;
    if (event.event_type !== 'stats' || !isRecord(stats) || typeof time !== 'string') return;
    const at = Date.parse(time.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
    if (!Number.isFinite(at) || time.length > 100) return;
    const now: Counters = {
      at,
      uptime: counter(stats, 'uptime'),
      packets: counter(stats, 'capture', 'kernel_packets') ?? 0,
      drops: counter(stats, 'capture', 'kernel_drops') ?? 0,
      alerts: counter(stats, 'detect', 'alert'),
    };
    const before = this.previous;
    // From zero: the first event seen, or the first after a restart.
    const base =
      before && !restarted(before, now) && before.at <= now.at
        ? before
        : { at: null, packets: 0, drops: 0, alerts: 0 };
    const packets = now.packets - base.packets;
    const drops = now.drops - base.drops;
    // From zero, the counters span Suricata's uptime.
    const minutes = base.at === null ? (now.uptime ?? 0) / 60 : (now.at - base.at) / 60_000;
    this.previous = now;
    this.latest = {
      time,
      kernel_packets: now.packets,
      kernel_drops: now.drops,
      drop_percent: packets > 0 ? round(Math.min(100, (drops / packets) * 100), 4) : null,
      alerts_per_min:
        minutes > 0 && now.alerts !== null && base.alerts !== null
          ? round((now.alerts - base.alerts) / minutes, 2)
          : null,
      decoder_bytes: counter(stats, 'decoder', 'bytes') ?? 0,
      flow_memuse: counter(stats, 'flow', 'memuse') ?? 0,
      ...engines(stats),
    };
  }
}

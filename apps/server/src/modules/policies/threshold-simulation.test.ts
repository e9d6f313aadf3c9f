import { describe, expect, it } from 'vitest';
import {
  isCounting,
  simulateThreshold,
  type CountingThreshold,
  type SimulatedAlert,
} from './threshold-simulation.js';

/** An alert `seconds` after the start (fractions to the microsecond), from `src` to `dest`. */
const at = (seconds: number, src = '10.0.0.1', dest = '192.0.2.1'): SimulatedAlert => ({
  timeMicros: Math.round(seconds * 1_000_000),
  src,
  dest,
});

const entry = (
  type: CountingThreshold['type'],
  track: CountingThreshold['track'],
  count: number,
  seconds: number,
): CountingThreshold => ({
  kind: 'threshold',
  gid: 1,
  sid: 2_000_001,
  type,
  track,
  count,
  seconds,
});

/** Each expectation below was worked out by hand from detect-engine-threshold.c. */
describe("Suricata's thresholds replayed over stored alerts", () => {
  it('limit: the first N of each window, per source; the window ends to the microsecond', () => {
    const alerts = [at(0), at(5, '10.0.0.2'), at(10), at(20), at(59.999_999), at(60), at(61)];
    expect(simulateThreshold(alerts, entry('limit', 'by_src', 2, 60))).toEqual([
      true, // first of 10.0.0.1's window [0, 60)
      true, // 10.0.0.2 has its own count
      true, // second in the window
      false,
      false, // still inside: 59.999999 < 60
      true, // 60 opens a new window
      true,
    ]);
  });

  it('threshold: every Nth in a window that does not move; past it the count starts at 1', () => {
    const alerts = [0, 1, 2, 3, 4, 5, 6, 70, 71, 72].map((s) => at(s));
    expect(simulateThreshold(alerts, entry('threshold', 'by_rule', 3, 60))).toEqual([
      false,
      false,
      true, // the third: raised, the count starts again
      false,
      false,
      true,
      false,
      false, // 70 is past the window opened at 0: a new one, counted as 1
      false,
      true,
    ]);
  });

  it('threshold with a count of 1 raises every alert', () => {
    const alerts = [0, 0.5, 1, 100].map((s) => at(s));
    expect(simulateThreshold(alerts, entry('threshold', 'by_src', 1, 60))).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });

  it('both: only the Nth of each window, per destination', () => {
    const alerts = [at(0), at(1), at(2), at(3), at(15), at(16), at(2.5, '10.0.0.1', '192.0.2.9')];
    alerts.sort((a, b) => a.timeMicros - b.timeMicros);
    expect(simulateThreshold(alerts, entry('both', 'by_dst', 2, 10))).toEqual([
      false, // 0
      true, // 1: the second
      false, // 2
      false, // 2.5, another destination: its first
      false, // 3
      false, // 15: a new window, counted as 1
      true, // 16
    ]);
  });

  it('both with a count of 1: the first of each window', () => {
    const alerts = [0, 1, 9.999_999, 30].map((s) => at(s));
    expect(simulateThreshold(alerts, entry('both', 'by_rule', 1, 10))).toEqual([
      true,
      false,
      false,
      true,
    ]);
  });

  it('by_both counts each source and destination pair on its own', () => {
    const alerts = [
      at(0, '10.0.0.1', '192.0.2.1'),
      at(1, '10.0.0.1', '192.0.2.2'),
      at(2, '10.0.0.1', '192.0.2.1'),
      at(3, '10.0.0.3', '192.0.2.1'),
    ];
    expect(simulateThreshold(alerts, entry('limit', 'by_both', 1, 60))).toEqual([
      true,
      true,
      false,
      true,
    ]);
  });

  it('counts only the rate-limiting kinds; a suppression or a rate_filter is no count', () => {
    expect(isCounting(entry('limit', 'by_src', 1, 1))).toBe(true);
    expect(isCounting({ kind: 'suppress', gid: 1, sid: 1, track: 'by_src', ip: '10.0.0.1' })).toBe(
      false,
    );
    expect(
      isCounting({
        kind: 'rate_filter',
        gid: 1,
        sid: 1,
        track: 'by_src',
        count: 1,
        seconds: 1,
        new_action: 'drop',
        timeout: 10,
      }),
    ).toBe(false);
  });
});

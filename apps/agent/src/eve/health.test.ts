import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SensorHealth } from '@palisade/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedStats } from '../simulate/stats.js';
import { Spool } from '../spool/spool.js';
import { corpusPresent } from '../../../../testing/corpus.mjs';
import { loadEveCorpus } from '../testing/corpus.js';
import { EveCollector } from './collector.js';
import { SensorHealthTracker } from './health.js';
import type { EveEvent } from './tailer.js';

interface Sample {
  at: string;
  uptime: number;
  packets: number;
  drops: number;
  alerts: number;
  failed?: number;
}

/** A stats line as Suricata 7 writes it (trimmed to the counters the agent reads). */
const statsLine = (s: Sample) =>
  JSON.stringify({
    timestamp: s.at,
    event_type: 'stats',
    stats: {
      uptime: s.uptime,
      capture: { kernel_packets: s.packets, kernel_drops: s.drops, errors: 0 },
      decoder: { pkts: s.packets, bytes: s.packets * 500 },
      flow: { memuse: 7_340_032 },
      detect: {
        engines: [
          {
            id: 0,
            last_reload: '2026-11-27T08:00:00.000000+0000',
            rules_loaded: 35_671,
            rules_failed: s.failed ?? 0,
          },
        ],
        alert: s.alerts,
      },
    },
  });

const observeAll = (samples: Sample[]) => {
  const tracker = new SensorHealthTracker();
  for (const s of samples) tracker.observe(JSON.parse(statsLine(s)) as EveEvent);
  return tracker.current;
};

describe('sensor health from stats events', () => {
  it('reads the counters and computes drops and alerts between two events', () => {
    const health = observeAll([
      { at: '2026-11-27T08:00:00.000000+0000', uptime: 60, packets: 1000, drops: 0, alerts: 10 },
      { at: '2026-11-27T08:00:08.000000+0000', uptime: 68, packets: 3000, drops: 40, alerts: 14 },
    ]);
    expect(health).toEqual({
      time: '2026-11-27T08:00:08.000000+0000',
      kernel_packets: 3000,
      kernel_drops: 40,
      drop_percent: 2,
      alerts_per_min: 30,
      decoder_bytes: 1_500_000,
      flow_memuse: 7_340_032,
      rules_loaded: 35_671,
      rules_failed: 0,
      last_reload: '2026-11-27T08:00:00.000000+0000',
    });
  });

  it('starts over from zero when Suricata restarts (counters reset)', () => {
    const health = observeAll([
      { at: '2026-11-27T08:00:00+0000', uptime: 600, packets: 900_000, drops: 100, alerts: 500 },
      // Restarted: uptime 120 s, counters from zero. A naive difference would be negative.
      { at: '2026-11-27T08:02:10+0000', uptime: 120, packets: 2000, drops: 500, alerts: 6 },
    ]);
    expect(health?.drop_percent).toBe(25);
    expect(health?.alerts_per_min).toBe(3);
  });

  it('has no drop share without packets, and no rate from one event', () => {
    const health = observeAll([
      { at: '2026-11-27T08:00:00+0000', uptime: 0, packets: 0, drops: 0, alerts: 0, failed: 3 },
    ]);
    expect(health?.drop_percent).toBeNull();
    expect(health?.alerts_per_min).toBeNull();
    expect(health?.rules_failed).toBe(3);
  });

  it('ignores events that are not stats or lack a timestamp', () => {
    const tracker = new SensorHealthTracker();
    tracker.observe({ event_type: 'alert', stats: {} });
    tracker.observe({ event_type: 'stats', stats: { uptime: 1 } });
    expect(tracker.current).toBeUndefined();
  });
});

describe('the collector keeps the latest stats beside the alerts it ships', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads stats lines from eve.json and spools only the alerts', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-health-'));
    const eve = path.join(dir, 'eve.json');
    const alert = { event_type: 'alert', timestamp: '2026-11-27T08:00:01+0000', alert: {} };
    await appendFile(
      eve,
      [
        statsLine({ at: '2026-11-27T08:00:00+0000', uptime: 8, packets: 100, drops: 1, alerts: 0 }),
        JSON.stringify(alert),
        statsLine({
          at: '2026-11-27T08:00:08+0000',
          uptime: 16,
          packets: 300,
          drops: 3,
          alerts: 1,
        }),
        '',
      ].join('\n'),
    );
    const spool = await Spool.open<EveEvent>(dir, 'alerts');
    const collector = new EveCollector({
      file: eve,
      spool,
      batch: { maxItems: 10, maxDelayMs: 1 },
    });
    await collector.poll();
    await collector.stop();
    expect(collector.health.current).toMatchObject({ kernel_packets: 300, drop_percent: 1 });
    const reopened = await Spool.open<EveEvent>(dir, 'alerts');
    const shipped = [];
    for (const seq of reopened.pendingSeqs()) shipped.push(...(await reopened.read(seq)).items);
    expect(shipped).toEqual([alert]);
  });

  it('reads the real stats events of the corpus', (context) => {
    const statsOf = (lines: string[]) =>
      lines
        .filter((line) => line.includes('"stats"'))
        .map((line) => JSON.parse(line) as EveEvent)
        .filter((event) => event.event_type === 'stats');
    // Without the corpus, loadEveCorpus answers generated events: those are not what this reads.
    if (!corpusPresent('eve')) context.skip('../shared/corpus absent: no real eve files');
    const files = loadEveCorpus()
      .map((file) => ({ name: file.name, events: statsOf(file.lines) }))
      .filter((file) => file.events.length > 0);
    if (files.length === 0) context.skip('no corpus eve file with stats events');
    for (const file of files) {
      const tracker = new SensorHealthTracker();
      for (const event of file.events) tracker.observe(event);
      const health = tracker.current;
      expect(health, file.name).toBeDefined();
      expect(health?.rules_loaded, file.name).toBeGreaterThan(0);
      if (health?.drop_percent != null) expect(health.drop_percent).toBeLessThanOrEqual(100);
    }
  });
});

describe('a simulated sensor', () => {
  it('reports health a real stats event would give, within the contract', () => {
    const degraded = new SimulatedStats(3);
    const calm = new SimulatedStats(1);
    const trackers = [new SensorHealthTracker(), new SensorHealthTracker()];
    const t0 = Date.now();
    for (let beat = 1; beat <= 3; beat++) {
      degraded.alerted(10);
      trackers[0]?.observe(degraded.event(4_000_000, 1200, t0 + beat * 30_000));
      trackers[1]?.observe(calm.event(4_000_000, 1200, t0 + beat * 30_000));
    }
    const [bad, good] = trackers.map((t) => SensorHealth.parse(t.current));
    expect(bad?.drop_percent).toBeGreaterThan(1);
    expect(bad?.alerts_per_min).toBe(20);
    expect(good?.drop_percent).toBeLessThan(1);
    expect(good?.rules_loaded).toBe(1200);
  });
});

import { DeviceMetrics } from '@palisade/contract';
import { describe, expect, it } from 'vitest';
import { corpusRulesFile } from '../testing/corpus.js';
import { AlertSimulation, sharedSignatures, signaturesOf } from './alerts.js';
import { SimulatedMetrics } from './metrics.js';

const PRIVATE = /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/;

describe('simulation', () => {
  // Talos community rules from the corpus, or the project's sample rules without it.
  const rules = corpusRulesFile('snort2-community/community.rules');
  /** The enabled rule lines of the file, counted without the parser. */
  const enabled = rules
    .split('\n')
    .filter((line) => /^(alert|drop|reject|pass)\s.*\bsid:\s*[1-9]/.test(line)).length;

  it('reads the signatures of the policy it is given', () => {
    const signatures = signaturesOf(rules);
    expect(signatures.length).toBe(enabled);
    expect(signatures.every((s) => s.sid > 0 && s.msg !== '')).toBe(true);
  }, 60_000);

  it('makes no bursts when told none, and only bursts with no background', () => {
    const hour = (options: { rate: number; burstsPerHour?: number }) => {
      const simulation = new AlertSimulation({ deviceId: 3, ...options });
      simulation.setRules(rules);
      let count = 0;
      const start = Date.UTC(2026, 10, 22);
      for (let second = 0; second < 3600; second++) {
        count += simulation.tick(start + second * 1000, 1).length;
      }
      return count;
    };
    expect(hour({ rate: 0, burstsPerHour: 0 })).toBe(0);
    expect(hour({ rate: 0, burstsPerHour: 60 })).toBeGreaterThan(0);
  }, 60_000);

  it('produces eve.json alerts naming real signatures, between inside and outside hosts', () => {
    const simulation = new AlertSimulation({ deviceId: 7, rate: 1 });
    simulation.setRules(rules);
    const sids = new Map(signaturesOf(rules).map((s) => [s.sid, s.msg]));
    const events = [];
    const start = Date.UTC(2026, 10, 22);
    for (let second = 0; second < 3600; second++) {
      events.push(...simulation.tick(start + second * 1000, 1));
    }
    // A quiet background near one a second, with bursts on top.
    expect(events.length).toBeGreaterThan(3000);
    const perMinute = new Map<string, number>();
    for (const event of events) {
      const alert = event.alert as { signature_id: number; signature: string; severity: number };
      expect(sids.get(alert.signature_id)).toBe(alert.signature);
      expect(event.event_type).toBe('alert');
      const src = String(event.src_ip);
      const dest = String(event.dest_ip);
      expect(PRIVATE.test(src) !== PRIVATE.test(dest)).toBe(true);
      expect(['TCP', 'UDP', 'ICMP']).toContain(event.proto);
      expect(String(event.timestamp)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+0000$/);
      const minute = String(event.timestamp).slice(0, 16);
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
    }
    const counts = [...perMinute.values()].sort((a, b) => a - b);
    // Bursty: the busiest minute is well above the median one.
    expect(counts.at(-1) ?? 0).toBeGreaterThan(3 * (counts[counts.length >> 1] ?? 0));
    const distinct = new Set(events.map((e) => (e.alert as { signature_id: number }).signature_id));
    expect(distinct.size).toBeGreaterThan(Math.min(20, enabled / 3));
  }, 60_000);

  it('parses a policy once for a fleet, each device drawing its own common signatures', () => {
    // Each device receives its own copy of the text (a bundle parsed from JSON).
    const copy = (text: string) => Buffer.from(text).toString();
    expect(sharedSignatures(copy(rules))).toBe(sharedSignatures(copy(rules)));
    const commonest = (deviceId: number) => {
      const simulation = new AlertSimulation({ deviceId, rate: 1 });
      simulation.setRules(copy(rules));
      const counts = new Map<unknown, number>();
      for (let second = 0; second < 600; second++) {
        for (const event of simulation.tick(Date.UTC(2026, 10, 22) + second * 1000, 1)) {
          const sid = (event.alert as { signature_id: number }).signature_id;
          counts.set(sid, (counts.get(sid) ?? 0) + 1);
        }
      }
      return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    };
    const devices = [1, 2, 3, 4].map(commonest);
    expect(new Set(devices).size).toBeGreaterThan(1);
  }, 60_000);

  it('gives no alerts before a policy is known', () => {
    expect(new AlertSimulation({ deviceId: 1 }).tick(Date.now(), 60)).toEqual([]);
  });

  it('wanders metrics within the protocol limits', async () => {
    const metrics = new SimulatedMetrics(3);
    for (let i = 0; i < 200; i++) {
      const sample = DeviceMetrics.parse(await metrics.sample());
      expect(sample.memory_used).toBeLessThan(sample.memory_total);
      expect(sample.disk_used).toBeLessThan(sample.disk_total);
    }
  });
});

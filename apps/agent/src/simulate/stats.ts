// Simulated Suricata stats events for demo sensors: cumulative capture and detect counters as
// Suricata writes them, fed to the same health tracker a real eve.json feeds. One device in
// seven drops a few percent of its packets, so a demo fleet shows what degraded looks like.

import type { EveEvent } from '../eve/tailer.js';
import { Random, seedFrom } from './random.js';

export class SimulatedStats {
  private readonly random: Random;
  private readonly started = Date.now();
  private readonly dropShare: number;
  private packets = 0;
  private drops = 0;
  private bytes = 0;
  private alerts = 0;
  private at = Date.now();

  constructor(deviceId: number) {
    this.random = new Random(seedFrom(deviceId, 'stats'));
    this.dropShare =
      deviceId % 7 === 3 ? 0.02 + this.random.next() * 0.03 : this.random.next() * 0.002;
  }

  /** Counts alerts the simulation produced. */
  alerted(count: number): void {
    this.alerts += count;
  }

  /** The stats event for now, given the inbound rate (bytes/s) and the rules the sensor runs. */
  event(netIn: number, rules: number, now = Date.now()): EveEvent {
    const seconds = Math.max(0, (now - this.at) / 1000);
    this.at = now;
    const packets = Math.round((netIn * seconds) / 800);
    const dropped = Math.round(packets * this.dropShare * (0.5 + this.random.next()));
    this.packets += packets;
    this.drops += Math.min(packets, dropped);
    this.bytes += Math.round(netIn * seconds);
    return {
      timestamp: new Date(now).toISOString(),
      event_type: 'stats',
      stats: {
        uptime: Math.round((now - this.started) / 1000),
        capture: { kernel_packets: this.packets, kernel_drops: this.drops },
        decoder: { bytes: this.bytes },
        flow: { memuse: 7_000_000 + Math.round(this.random.next() * 1_000_000) },
        detect: {
          engines: [
            {
              id: 0,
              last_reload: new Date(this.started).toISOString(),
              rules_loaded: rules,
              rules_failed: 0,
            },
          ],
          alert: this.alerts,
        },
      },
    };
  }
}

// Simulated machine metrics: mean-reverting random walks for CPU, memory and network, a disk
// that fills slowly, and a load that follows the alert rate (bursts cost CPU).

import type { DeviceMetrics } from '@palisade/contract';
import type { MetricsSource } from '../metrics/system.js';
import { clamp } from '../metrics/compute.js';
import { Random, seedFrom } from './random.js';

const GIB = 1024 ** 3;

export class SimulatedMetrics implements MetricsSource {
  private readonly random: Random;
  private readonly memoryTotal: number;
  private readonly diskTotal: number;
  private readonly cpuBase: number;
  private readonly netBase: number;
  private cpu: number;
  private memory: number;
  private disk: number;
  private netIn: number;
  private netOut: number;
  private at = Date.now();
  /** Alerts per second lately, set by the alert simulation. */
  load = 0;

  constructor(deviceId: number) {
    this.random = new Random(seedFrom(deviceId, 'metrics'));
    const r = this.random;
    this.memoryTotal = r.pick([4, 8, 16, 32]) * GIB;
    this.diskTotal = r.pick([64, 128, 256, 512]) * GIB;
    this.cpuBase = 8 + r.next() * 25;
    this.netBase = (1 + r.next() * 40) * 1024 * 1024;
    this.cpu = this.cpuBase;
    this.memory = 0.4 + r.next() * 0.25;
    this.disk = 0.2 + r.next() * 0.4;
    this.netIn = this.netBase;
    this.netOut = this.netBase * (0.1 + r.next() * 0.3);
  }

  /** One step of an Ornstein–Uhlenbeck walk toward `mean`. */
  private walk(value: number, mean: number, pull: number, noise: number): number {
    return value + pull * (mean - value) + noise * this.random.normal();
  }

  sample(): Promise<DeviceMetrics> {
    const now = Date.now();
    const steps = clamp((now - this.at) / 30_000, 0.05, 4);
    this.at = now;
    const hour = new Date(now).getUTCHours() + new Date(now).getUTCMinutes() / 60;
    const daytime = 0.65 + 0.35 * Math.sin(((hour - 8) / 24) * 2 * Math.PI);
    const burst = Math.min(40, this.load * 1.5);
    this.cpu = clamp(this.walk(this.cpu, this.cpuBase * daytime + burst, 0.3 * steps, 4), 1, 99);
    this.memory = clamp(this.walk(this.memory, 0.55, 0.05 * steps, 0.01), 0.2, 0.95);
    this.disk = clamp(this.disk + 0.00002 * steps * (1 + this.random.next()), 0, 0.97);
    this.netIn = Math.max(0, this.walk(this.netIn, this.netBase * daytime, 0.25, this.netBase / 8));
    this.netOut = Math.max(0, this.walk(this.netOut, this.netIn * 0.2, 0.3, this.netBase / 30));
    return Promise.resolve({
      cpu: Math.round(this.cpu * 10) / 10,
      memory_used: Math.round(this.memory * this.memoryTotal),
      memory_total: this.memoryTotal,
      disk_used: Math.round(this.disk * this.diskTotal),
      disk_total: this.diskTotal,
      net_in: Math.round(this.netIn),
      net_out: Math.round(this.netOut),
    });
  }
}

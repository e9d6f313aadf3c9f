import type { CpuInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { cpuPercent, cpuTimes, netRates, parseMeminfo, parseProcNetDev } from './compute.js';
import { SystemMetrics } from './system.js';

const PROC_NET_DEV = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo: 9000000   1000    0    0    0     0          0         0  9000000   1000    0    0    0     0       0          0
  eth0: 1500000   2000    0    0    0     0          0         0   250000    900    0    0    0     0       0          0
  eth1:  500000    100    0    0    0     0          0         0    50000     10    0    0    0     0       0          0
`;

const cpu = (idle: number, busy: number): CpuInfo => ({
  model: 'x',
  speed: 1,
  times: { user: busy, nice: 0, sys: 0, idle, irq: 0 },
});

describe('metrics', () => {
  it('sums /proc/net/dev without loopback and turns counters into rates', () => {
    const before = parseProcNetDev(PROC_NET_DEV);
    expect(before).toEqual({ rx: 2_000_000, tx: 300_000 });
    expect(netRates(before, { rx: 2_100_000, tx: 300_000 }, 10)).toEqual({
      net_in: 10_000,
      net_out: 0,
    });
    expect(netRates({ rx: 5, tx: 5 }, { rx: 1, tx: 1 }, 1)).toEqual({ net_in: 0, net_out: 0 });
  });

  it('measures CPU busy share between two readings', () => {
    const before = cpuTimes([cpu(100, 100), cpu(100, 100)]);
    const after = cpuTimes([cpu(150, 150), cpu(190, 110)]);
    expect(cpuPercent(before, after)).toBeCloseTo(30);
    expect(cpuPercent(after, after)).toBe(0);
  });

  it('reads MemTotal and MemAvailable', () => {
    expect(parseMeminfo('MemTotal:  1000 kB\nMemFree: 10 kB\nMemAvailable:   400 kB\n')).toEqual({
      total: 1_024_000,
      available: 409_600,
    });
    expect(parseMeminfo('')).toBeUndefined();
  });

  it('samples this machine with plausible values', async () => {
    const source = new SystemMetrics('/');
    await source.sample();
    const sample = await source.sample();
    expect(sample.memory_total).toBeGreaterThan(0);
    expect(sample.memory_used).toBeLessThanOrEqual(sample.memory_total);
    expect(sample.disk_total).toBeGreaterThan(0);
    expect(sample.disk_used).toBeLessThanOrEqual(sample.disk_total);
    expect(sample.cpu).toBeGreaterThanOrEqual(0);
    expect(sample.cpu).toBeLessThanOrEqual(100);
  });
});

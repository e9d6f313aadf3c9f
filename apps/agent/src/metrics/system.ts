// Metrics of the machine the agent runs on, as deltas since the previous sample.

import type { DeviceMetrics } from '@palisade/contract';
import { readFile, statfs } from 'node:fs/promises';
import os from 'node:os';
import {
  cpuPercent,
  cpuTimes,
  netRates,
  parseMeminfo,
  parseProcNetDev,
  type CpuTimes,
  type NetCounters,
} from './compute.js';

export interface MetricsSource {
  sample(): Promise<DeviceMetrics>;
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

async function netCounters(): Promise<NetCounters> {
  const text = await readOptional('/proc/net/dev');
  return text === undefined ? { rx: 0, tx: 0 } : parseProcNetDev(text);
}

export class SystemMetrics implements MetricsSource {
  private cpu: CpuTimes = cpuTimes(os.cpus());
  private net: NetCounters | undefined;
  private at = performance.now();

  /** `diskPath`: a path on the file system whose use is reported. */
  constructor(private readonly diskPath: string) {}

  async sample(): Promise<DeviceMetrics> {
    const now = performance.now();
    const seconds = (now - this.at) / 1000;
    const cpu = cpuTimes(os.cpus());
    const net = await netCounters();
    const rates = this.net ? netRates(this.net, net, seconds) : { net_in: 0, net_out: 0 };
    const percent = cpuPercent(this.cpu, cpu);
    this.cpu = cpu;
    this.net = net;
    this.at = now;

    const meminfo = parseMeminfo((await readOptional('/proc/meminfo')) ?? '');
    const memTotal = meminfo?.total ?? os.totalmem();
    const memFree = meminfo?.available ?? os.freemem();
    let diskTotal = 0;
    let diskUsed = 0;
    try {
      const fs = await statfs(this.diskPath);
      diskTotal = fs.blocks * fs.bsize;
      diskUsed = (fs.blocks - fs.bfree) * fs.bsize;
    } catch {
      // reported as 0 of 0
    }
    return {
      cpu: Math.round(percent * 10) / 10,
      memory_used: Math.max(0, memTotal - memFree),
      memory_total: memTotal,
      disk_used: Math.max(0, diskUsed),
      disk_total: diskTotal,
      net_in: Math.round(rates.net_in),
      net_out: Math.round(rates.net_out),
    };
  }
}

// Pure pieces of the metrics: parsing /proc files and turning counters into rates.

import type { CpuInfo } from 'node:os';

export interface CpuTimes {
  idle: number;
  total: number;
}

export function cpuTimes(cpus: readonly CpuInfo[]): CpuTimes {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

/** Busy share of all cores between two readings, 0–100. */
export function cpuPercent(before: CpuTimes, after: CpuTimes): number {
  const total = after.total - before.total;
  if (total <= 0) return 0;
  const busy = total - (after.idle - before.idle);
  return clamp((100 * busy) / total, 0, 100);
}

export interface NetCounters {
  rx: number;
  tx: number;
}

/** Received and sent bytes of every interface but loopback, from /proc/net/dev. */
export function parseProcNetDev(text: string): NetCounters {
  let rx = 0;
  let tx = 0;
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    if (name === 'lo' || name === '') continue;
    const fields = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    // receive: bytes packets errs drop fifo frame compressed multicast; transmit: bytes …
    const received = fields[0];
    const sent = fields[8];
    if (received === undefined || sent === undefined) continue;
    if (Number.isFinite(received)) rx += received;
    if (Number.isFinite(sent)) tx += sent;
  }
  return { rx, tx };
}

/** Bytes per second; a counter that went backwards (reset, interface gone) counts as 0. */
export function netRates(
  before: NetCounters,
  after: NetCounters,
  seconds: number,
): { net_in: number; net_out: number } {
  if (seconds <= 0) return { net_in: 0, net_out: 0 };
  return {
    net_in: Math.max(0, after.rx - before.rx) / seconds,
    net_out: Math.max(0, after.tx - before.tx) / seconds,
  };
}

/** MemTotal and MemAvailable of /proc/meminfo in bytes, when both are there. */
export function parseMeminfo(text: string): { total: number; available: number } | undefined {
  const read = (key: string): number | undefined => {
    const match = new RegExp(`^${key}:\\s+(\\d+)\\s*kB`, 'm').exec(text);
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
  };
  const total = read('MemTotal');
  const available = read('MemAvailable');
  return total === undefined || available === undefined ? undefined : { total, available };
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

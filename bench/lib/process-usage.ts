// CPU time and resident memory of the processes a benchmark measures, read from /proc (Linux).
import { readdirSync, readFileSync } from 'node:fs';

/** Fields of /proc/<pid>/stat after the command's closing parenthesis. */
function statFields(pid: number): string[] {
  return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds the PostgreSQL server's processes have used so far (they share the two CPUs with
 * the server and the fleet): the live ones' own, and the postmaster's count of its ended
 * children (a pool's backend that closed during a measurement would otherwise take its CPU
 * with it: summing the live ones alone once gave a negative figure at rest).
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const fields = statFields(Number(entry));
      total += (Number(fields[11]) + Number(fields[12])) / 100;
      const parent = Number(fields[1]);
      if (readFileSync(`/proc/${parent}/comm`, 'utf8').trim() !== 'postgres') {
        // The postmaster: what its ended backends used.
        total += (Number(fields[13]) + Number(fields[14])) / 100;
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/** CPU seconds of this process's ended children (those it waited for, as execFileSync does). */
export function endedChildrenCpuSeconds(): number {
  const fields = statFields(process.pid);
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** A process's resident memory (VmRSS), KiB; NaN without a process. */
export function rssKiB(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

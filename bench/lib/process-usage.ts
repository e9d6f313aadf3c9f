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
 * with it: summing the live ones alone once gave a negative figure at rest). A backend the
 * postmaster reaps while /proc is read would be counted twice or not at all (psql's once
 * showed 3 ms per 1,000 rows), so the reading is taken again until the postmaster's count held
 * still across it.
 */
export function postgresCpuSeconds(): number {
  let reading = readPostgresCpu();
  for (let attempt = 0; attempt < 10 && reading.endedBefore !== reading.endedAfter; attempt += 1)
    reading = readPostgresCpu();
  return reading.live + reading.endedAfter;
}

function readPostgresCpu(): { live: number; endedBefore: number; endedAfter: number } {
  const pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  const postgres: { pid: number; fields: string[] }[] = [];
  for (const entry of pids) {
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      postgres.push({ pid: Number(entry), fields: statFields(Number(entry)) });
    } catch {
      // The process ended meanwhile.
    }
  }
  const pidSet = new Set(postgres.map((p) => p.pid));
  // The postmaster is the postgres process whose parent is not one.
  const postmasters = postgres.filter((p) => !pidSet.has(Number(p.fields[1])));
  const ended = () =>
    postmasters.reduce((sum, { pid }) => {
      try {
        const fields = statFields(pid);
        return sum + (Number(fields[13]) + Number(fields[14])) / 100;
      } catch {
        return sum; // the server stopped
      }
    }, 0);
  const endedBefore = ended();
  let live = 0;
  for (const { pid } of postgres) {
    try {
      live += cpuSeconds(pid);
    } catch {
      // Ended since the list was made: its CPU is in the postmaster's count once reaped.
    }
  }
  return { live, endedBefore, endedAfter: ended() };
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

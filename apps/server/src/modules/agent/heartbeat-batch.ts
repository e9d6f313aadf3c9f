import type { Database } from '../../db/client.js';
import {
  agentRepository as repo,
  type HeartbeatRow,
  type HeartbeatWrite,
} from './agent.repository.js';

/**
 * How long beats are gathered before their batch is written. A statement's cost is mostly per
 * beat, but not all: on the embedded database a batch of 20 beats cost 105 µs a beat, one of 64
 * 54 µs and one of 256 43 µs. A fleet of 200,000 sensors at a 30 s heartbeat sends 6,667 beats
 * a second: gathered for 20 ms they are batches of about 130, where a batch of what arrived
 * during the last write (a few milliseconds) held a few dozen at most. A routine beat is
 * answered before its write, so only beats that change what the console shows wait longer,
 * as alert batches wait for theirs (ALERT_GATHER_MS).
 */
const GATHER_MS = 20;
/** Most heartbeats written by one statement. */
const MAX_BATCH = 5000;
/** Most routine beats answered before their write; past this, beats wait for theirs. */
const MAX_UNWRITTEN = 20_000;

interface Waiting {
  write: HeartbeatWrite;
  /** Absent for a routine beat: it was answered before its write. */
  resolve?: (row: HeartbeatRow | undefined) => void;
  reject?: (error: unknown) => void;
  /** A routine beat's organization, as its answer's row said. */
  orgId?: number;
}

/** A routine beat: answered from the remembered row before its write. */
const isAnswered = (waiting: Waiting): boolean => waiting.resolve === undefined;

/** A device's row after its last written beat, and what that beat said. */
interface Written {
  row: HeartbeatRow;
  beat: HeartbeatWrite['beat'];
}

/**
 * A beat is routine when it says what the device's last written beat said, metrics and time
 * aside, and reports no upgrade: the console would show nothing new but "last seen" and a
 * metrics sample.
 */
function isRoutine(write: HeartbeatWrite, written: Written): boolean {
  const { beat } = write;
  const before = written.beat;
  return (
    written.row.token_version === write.tokenVersion &&
    // A flush is cleared by the device's next bundle pull, which tells nobody: until a write
    // reads it cleared, beats wait for theirs.
    !written.row.flush_requested &&
    beat.state === before.state &&
    beat.agent_version === before.agent_version &&
    beat.local.config_version === before.local.config_version &&
    beat.local.policy_version === before.local.policy_version &&
    (beat.last_error === undefined || beat.last_error === before.last_error) &&
    beat.firewall?.drift === before.firewall?.drift &&
    beat.firewall?.reapplied_at === before.firewall?.reapplied_at &&
    beat.upgrade === undefined
  );
}

/**
 * Group commit for heartbeats. Beats are written many at a time, in one statement: a beat that
 * arrives while no write runs is written GATHER_MS later with whatever else arrived by then;
 * beats that arrive during a write go into the next one.
 *
 * A beat that changes what the console shows (state, local versions, agent version, last error),
 * a device's first beat here, and any beat while the queue is long, is answered after its write
 * committed, from the row it read back. A routine beat (metrics and time only) is answered at
 * once from the device's row as its last waiting beat read it back, and written with the next
 * batch, which reads no row back for it: a fleet's beats are almost all routine, and answering
 * them without waiting lets a batch hold thousands instead of the few that arrived during one
 * round trip. The rows of an organization are forgotten whenever its devices change (a revoked
 * token, a new policy, an upgrade or a flush asked, a deleted device: see forgetOrganization),
 * so such a change is always answered from a fresh write; a flush, which the device's next
 * bundle pull clears without a notice, keeps its beats waiting until a write reads it cleared.
 * Should the server stop before the write, the sample is lost and the device's next beat
 * records it as seen again.
 */
export class HeartbeatBatch {
  private waiting: Waiting[] = [];
  private draining: Promise<void> | null = null;
  private readonly written = new Map<number, Written>();
  /** Moves whenever rows are forgotten, so that a write begun before does not bring them back. */
  private epoch = 0;

  constructor(
    private readonly db: Database,
    /**
     * Told the organizations whose devices just checked in, after each write, and those of
     * them where a beat may have changed what the console shows (state, versions, error).
     */
    private readonly afterWrite: (orgIds: Set<number>, changedOrgIds: Set<number>) => void,
    /** Told when a write of beats that were already answered failed. */
    private readonly onLostWrite: (error: unknown) => void,
  ) {}

  /** Records the beat; the device's row, or undefined if its token no longer counts. */
  record(write: HeartbeatWrite): Promise<HeartbeatRow | undefined> {
    const written = this.written.get(write.deviceId);
    if (written !== undefined && this.waiting.length < MAX_UNWRITTEN && isRoutine(write, written)) {
      this.enqueue({ write, orgId: written.row.org_id });
      return Promise.resolve(written.row);
    }
    return new Promise((resolve, reject) => this.enqueue({ write, resolve, reject }));
  }

  /** Drops what is known of an organization's devices: they changed, or may have. */
  forgetOrganization(orgId: number): void {
    this.epoch += 1;
    for (const [deviceId, written] of this.written) {
      if (written.row.org_id === orgId) this.written.delete(deviceId);
    }
  }

  /** Drops what is known of every device (notifications may have been missed). */
  forgetAll(): void {
    this.epoch += 1;
    this.written.clear();
  }

  /** Resolves once every beat received so far has been written. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private enqueue(waiting: Waiting): void {
    this.waiting.push(waiting);
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      // Let the beats that arrive meanwhile be read first (they join this batch).
      await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
      const batch = this.waiting.splice(0, MAX_BATCH);
      const epoch = this.epoch;
      try {
        const rows = await repo.heartbeats(
          this.db,
          batch.map((w) => (isAnswered(w) ? { ...w.write, answered: true } : w.write)),
        );
        // Rows come back only for the beats that wait for them: a routine beat's row is the
        // one it was answered from, and stays remembered until its organization changes.
        const byDevice = new Map(rows.map((row) => [row.id, row]));
        this.remember(batch, byDevice, epoch);
        for (const w of batch) {
          const row = byDevice.get(w.write.deviceId);
          w.resolve?.(row?.token_version === w.write.tokenVersion ? row : undefined);
        }
        // A beat answered after its write is one that was not routine (or a device's first).
        const changed = new Set<number>();
        for (const w of batch) {
          const org = isAnswered(w) ? undefined : byDevice.get(w.write.deviceId)?.org_id;
          if (org !== undefined) changed.add(org);
        }
        const checkedIn = new Set(rows.map((row) => row.org_id));
        for (const w of batch) if (w.orgId !== undefined) checkedIn.add(w.orgId);
        this.afterWrite(checkedIn, changed);
      } catch (error) {
        this.epoch += 1;
        this.written.clear();
        let answered = false;
        for (const w of batch) {
          if (w.reject) w.reject(error);
          else answered = true;
        }
        if (answered) this.onLostWrite(error);
      }
    }
  }

  private remember(batch: Waiting[], byDevice: Map<number, HeartbeatRow>, epoch: number): void {
    const fresh = epoch === this.epoch;
    // The last beat of each device in the batch is the one its row now reflects.
    for (const waiting of batch) {
      const { write } = waiting;
      const row = byDevice.get(write.deviceId);
      // Not read back: what is remembered still holds (see the class comment).
      if (row === undefined && isAnswered(waiting)) continue;
      if (fresh && row?.token_version === write.tokenVersion) {
        this.written.set(write.deviceId, { row, beat: write.beat });
      } else {
        this.written.delete(write.deviceId);
      }
    }
  }
}

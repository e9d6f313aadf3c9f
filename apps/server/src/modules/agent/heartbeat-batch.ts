import type { Database } from '../../db/client.js';
import {
  agentRepository as repo,
  type HeartbeatRow,
  type HeartbeatWrite,
} from './agent.repository.js';

/** Most heartbeats written by one statement. */
const MAX_BATCH = 2000;

interface Waiting {
  write: HeartbeatWrite;
  resolve: (row: HeartbeatRow | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for heartbeats. A beat that arrives while no write is running is written on the
 * next turn of the event loop, with whatever else arrived by then; beats that arrive while a
 * write runs wait for it and are then written together, in one statement. So a quiet server
 * answers each heartbeat after its own write (no timer, no added delay) and a busy one makes
 * one round trip for many devices instead of one each. Every caller still gets its answer only
 * after its beat was committed.
 */
export class HeartbeatBatch {
  private waiting: Waiting[] = [];
  private running = false;

  constructor(
    private readonly db: Database,
    /** Told the organizations whose devices just checked in, after each write. */
    private readonly afterWrite: (orgIds: Set<number>) => void,
  ) {}

  /** Records the beat; the device's row after it, or undefined if its token no longer counts. */
  record(write: HeartbeatWrite): Promise<HeartbeatRow | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ write, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.waiting.length > 0) {
      // Let the requests that arrived meanwhile be read first (they join this batch). Embedded
      // PGlite runs a statement on this thread, so without this each batch would hold only
      // the beats read between two statements.
      await new Promise((resolve) => setImmediate(resolve));
      const batch = this.waiting.splice(0, MAX_BATCH);
      try {
        const rows = await repo.heartbeats(
          this.db,
          batch.map((w) => w.write),
        );
        const byDevice = new Map(rows.map((row) => [row.id, row]));
        for (const w of batch) {
          const row = byDevice.get(w.write.deviceId);
          w.resolve(row?.token_version === w.write.tokenVersion ? row : undefined);
        }
        this.afterWrite(new Set(rows.map((row) => row.org_id)));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    this.running = false;
  }
}

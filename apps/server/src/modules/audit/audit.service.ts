import type {
  AuditAction,
  AuditExportQuery,
  AuditObjectType,
  AuditPage,
  AuditQuery,
} from '@palisade/contract';
import type { Database, Queryable } from '../../db/client.js';
import { assertRole, type Principal } from '../../plugins/auth.js';
import { csvLine, CSV_COLUMNS, presentAudit } from './audit.presenter.js';
import { auditRepository as repo, type AuditFilter } from './audit.repository.js';

/** Who acted. Build one with `userActor(principal)`, `deviceActor(...)` or `SERVER_ACTOR`. */
export type AuditActor =
  /** `id` null: a failed sign-in, where `name` is the e-mail tried. */
  | { kind: 'user'; id: number | null; name: string; requestId?: string }
  | { kind: 'device'; id: number; name: string; requestId?: string }
  | { kind: 'server'; name: string };

export const userActor = (principal: Principal): AuditActor => ({
  kind: 'user',
  id: principal.userId,
  name: principal.email,
  ...(principal.requestId ? { requestId: principal.requestId } : {}),
});

export const deviceActor = (
  device: { id: number; name: string },
  requestId?: string,
): AuditActor => ({
  kind: 'device',
  id: device.id,
  name: device.name,
  ...(requestId ? { requestId } : {}),
});

/** Scheduled work: `name` says which job (e.g. "rule source schedule", "expiry"). */
export const serverActor = (name: string): AuditActor => ({ kind: 'server', name });

export interface AuditEntry {
  orgId: number;
  actor: AuditActor;
  action: AuditAction;
  object: { type: AuditObjectType; id: number | string | null; name: string | null };
  /** The fields that changed, as they were and as they are; never a secret. */
  before?: unknown;
  after?: unknown;
}

/**
 * Records changes in the caller's transaction, so a change cannot commit without its record
 * and a record never outlives a change that rolled back. Call it with the `tx` of the write.
 */
export async function recordAudit(tx: Queryable, ...entries: AuditEntry[]): Promise<void> {
  await repo.insert(
    tx,
    entries.map((entry) => ({
      org_id: entry.orgId,
      actor_kind: entry.actor.kind,
      actor_id: entry.actor.kind === 'server' ? null : entry.actor.id,
      actor_name: entry.actor.name,
      action: entry.action,
      object_type: entry.object.type,
      object_id: entry.object.id === null ? null : String(entry.object.id),
      object_name: entry.object.name,
      before: entry.before ?? null,
      after: entry.after ?? null,
      request_id: entry.actor.kind === 'server' ? null : (entry.actor.requestId ?? null),
    })),
  );
}

/**
 * The fields of `after` that differ from `before` (shallow), each side holding only those, so
 * a record says what changed without copying what did not. Keys in `omit` (secrets, hashes)
 * never appear.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  omit: readonly string[] = [],
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (omit.includes(key)) continue;
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    was[key] = before[key];
    now[key] = after[key];
  }
  return { before: was, after: now };
}

/** Rows read per statement while an export streams. */
const EXPORT_CHUNK = 1000;
/** Records deleted per transaction by retention. */
const RETENTION_BATCH = 5000;

const filterOf = (principal: Principal, query: Omit<AuditQuery, 'limit'>): AuditFilter => ({
  orgId: principal.orgId,
  actor: query.actor,
  action: query.action,
  objectType: query.object_type,
  objectId: query.object_id,
  from: query.from,
  to: query.to,
});

/** The log as Administrators read it: their organization's, newest first. */
export function createAuditService(db: Database) {
  return {
    /** One page by keyset: a single statement, whichever page. */
    async list(principal: Principal, query: AuditQuery): Promise<AuditPage> {
      assertRole(principal, 'Administrator');
      const rows = await repo.page(db, filterOf(principal, query), {
        limit: query.limit + 1,
        beforeId: query.before_id,
      });
      const data = rows.slice(0, query.limit).map(presentAudit);
      const more = rows.length > query.limit;
      return { data, next_before_id: more ? (data.at(-1)?.id ?? null) : null };
    },

    /**
     * Everything the filters match as CSV or JSON text, newest first, read a thousand rows at a
     * time by keyset: memory stays flat however long the log, and no statement holds a
     * transaction open while the client reads. Authorization is checked before the first byte.
     */
    export(principal: Principal, query: AuditExportQuery): AsyncGenerator<string> {
      assertRole(principal, 'Administrator');
      const filter = filterOf(principal, query);
      const csv = query.format === 'csv';
      return (async function* chunks() {
        yield csv ? `${CSV_COLUMNS.join(',')}\r\n` : '[';
        let beforeId: number | undefined;
        let first = true;
        for (;;) {
          const rows = await repo.page(db, filter, { limit: EXPORT_CHUNK, beforeId });
          const records = rows.map(presentAudit);
          if (records.length > 0) {
            yield records
              .map((record) => {
                if (csv) return csvLine(record);
                const text = `${first ? '\n' : ',\n'}${JSON.stringify(record)}`;
                first = false;
                return text;
              })
              .join('');
          }
          if (rows.length < EXPORT_CHUNK) break;
          beforeId = records.at(-1)?.id;
        }
        if (!csv) yield '\n]\n';
      })();
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;

/**
 * Retention: deletes the records older than `days`, in batches of a few thousand, each its own
 * short transaction so that writers never wait long behind it. Answers how many went.
 */
export async function pruneAuditLog(db: Database, days: number, now = new Date()) {
  const before = new Date(now.getTime() - days * 86_400_000);
  let deleted = 0;
  for (;;) {
    const removed = await db.transaction((tx) => repo.deleteOlderThan(tx, before, RETENTION_BATCH));
    deleted += removed;
    if (removed < RETENTION_BATCH) return deleted;
  }
}

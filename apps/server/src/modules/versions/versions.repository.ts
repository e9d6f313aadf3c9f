import type { Queryable } from '../../db/client.js';
import type { VersionKind } from './versions.service.js';

export interface VersionRow {
  version: number;
  sha256: string;
  definition: unknown;
  summary: Record<string, number>;
  created_at: Date;
  actor_name: string;
  cause: 'edit' | 'rollback' | 'baseline';
  restored_from: number | null;
}

/** A row of rendered_contents as sent to the database: the body in base64 (bytea). */
export interface ContentInsert {
  sha256: string;
  encoding: 'identity' | 'gzip';
  base64: string;
  size: number;
}

export interface VersionInsert {
  orgId: number;
  id: number;
  definition: unknown;
  summary: Record<string, number>;
  actor: string;
  cause: 'edit' | 'rollback';
  restoredFrom: number | null;
}

const SELECT_VERSION = `SELECT version, sha256, definition, summary, created_at, actor_name, cause,
  restored_from FROM object_versions`;

const json = (values: unknown[]) => values.map((value) => JSON.stringify(value));

/** rendered_contents and object_versions: only the versions module writes them. */
export const versionsRepository = {
  /**
   * Versions of objects whose version is their definition (rulesets, profiles, device
   * networks), in one statement however many: each item's definition is hashed as jsonb text
   * (canonical: the same definition gives the same bytes on both databases), stored once as
   * content, and recorded as the object's next version only when that hash differs from its
   * latest version's. Answers the versions recorded.
   */
  async recordDefinitions(
    db: Queryable,
    kind: VersionKind,
    items: VersionInsert[],
  ): Promise<{ id: number; version: number }[]> {
    if (items.length === 0) return [];
    return db.query<{ id: number; version: number }>(
      `WITH u AS (
         SELECT u.org_id, u.object_id, u.definition, u.summary, u.actor_name, u.cause, u.restored_from,
                convert_to(u.definition::text, 'UTF8') AS body
           FROM unnest($2::int[], $3::int[], $4::jsonb[], $5::jsonb[], $6::text[], $7::text[], $8::int[])
                AS u(org_id, object_id, definition, summary, actor_name, cause, restored_from)),
       h AS (SELECT u.*, encode(sha256(u.body), 'hex') AS sha256 FROM u),
       latest AS (
         SELECT DISTINCT ON (v.object_id) v.object_id, v.version, v.sha256 FROM object_versions v
          WHERE v.kind = $1 AND v.object_id IN (SELECT object_id FROM u)
          ORDER BY v.object_id, v.version DESC),
       fresh AS (
         SELECT h.*, COALESCE(l.version, 0) + 1 AS version FROM h LEFT JOIN latest l USING (object_id)
          WHERE l.sha256 IS DISTINCT FROM h.sha256),
       stored AS (
         INSERT INTO rendered_contents (sha256, encoding, body, size)
         SELECT DISTINCT ON (sha256) sha256, 'identity', body, octet_length(body) FROM fresh
         ON CONFLICT (sha256) DO NOTHING)
       INSERT INTO object_versions (kind, object_id, version, org_id, sha256, definition, summary,
                                    actor_name, cause, restored_from)
       SELECT $1, object_id, version, org_id, sha256, definition, summary, actor_name, cause, restored_from
         FROM fresh
       RETURNING object_id AS id, version`,
      [
        kind,
        items.map((i) => i.orgId),
        items.map((i) => i.id),
        json(items.map((i) => i.definition)),
        json(items.map((i) => i.summary)),
        items.map((i) => i.actor),
        items.map((i) => i.cause),
        items.map((i) => i.restoredFrom),
      ],
    );
  },

  /**
   * Versions whose number and hash the caller decided (policies: the policies table keeps
   * both), with the contents they name, in one statement. A content already stored is kept; a
   * version already recorded (a baseline) is left as it is.
   */
  async recordRendered(
    db: Queryable,
    kind: VersionKind,
    items: (VersionInsert & { version: number; sha256: string })[],
    contents: ContentInsert[],
  ): Promise<void> {
    if (items.length === 0 && contents.length === 0) return;
    await db.query(
      `WITH stored AS (
         INSERT INTO rendered_contents (sha256, encoding, body, size)
         SELECT c.sha256, c.encoding, decode(c.body, 'base64'), c.size
           FROM unnest($10::text[], $11::text[], $12::text[], $13::int[]) AS c(sha256, encoding, body, size)
         ON CONFLICT (sha256) DO NOTHING)
       INSERT INTO object_versions (kind, object_id, version, org_id, sha256, definition, summary,
                                    actor_name, cause, restored_from)
       SELECT $1, u.object_id, u.version, u.org_id, u.sha256, u.definition, u.summary, u.actor_name,
              u.cause, u.restored_from
         FROM unnest($2::int[], $3::int[], $4::int[], $5::text[], $6::jsonb[], $7::jsonb[], $8::text[],
                     $9::text[], $14::int[])
              AS u(org_id, object_id, version, sha256, definition, summary, actor_name, cause, restored_from)
       ON CONFLICT (kind, object_id, version) DO NOTHING`,
      [
        kind,
        items.map((i) => i.orgId),
        items.map((i) => i.id),
        items.map((i) => i.version),
        items.map((i) => i.sha256),
        json(items.map((i) => i.definition)),
        json(items.map((i) => i.summary)),
        items.map((i) => i.actor),
        items.map((i) => i.cause),
        contents.map((c) => c.sha256),
        contents.map((c) => c.encoding),
        contents.map((c) => c.base64),
        contents.map((c) => c.size),
        items.map((i) => i.restoredFrom),
      ],
    );
  },

  async content(
    db: Queryable,
    sha256: string,
  ): Promise<{ encoding: 'identity' | 'gzip'; body: string } | undefined> {
    const [row] = await db.query<{ encoding: 'identity' | 'gzip'; body: string }>(
      `SELECT encoding, encode(body, 'base64') AS body FROM rendered_contents WHERE sha256 = $1`,
      [sha256],
    );
    return row;
  },

  async list(
    db: Queryable,
    kind: VersionKind,
    orgId: number,
    id: number,
    page: { limit: number; offset: number },
  ): Promise<{ rows: Omit<VersionRow, 'definition'>[]; total: number }> {
    const [rows, count] = await Promise.all([
      db.query<Omit<VersionRow, 'definition'>>(
        `SELECT version, sha256, summary, created_at, actor_name, cause, restored_from
           FROM object_versions WHERE kind = $1 AND org_id = $2 AND object_id = $3
          ORDER BY version DESC LIMIT $4 OFFSET $5`,
        [kind, orgId, id, page.limit, page.offset],
      ),
      db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM object_versions
          WHERE kind = $1 AND org_id = $2 AND object_id = $3`,
        [kind, orgId, id],
      ),
    ]);
    return { rows, total: count[0]?.total ?? 0 };
  },

  async at(
    db: Queryable,
    kind: VersionKind,
    orgId: number,
    id: number,
    version: number,
  ): Promise<VersionRow | undefined> {
    const [row] = await db.query<VersionRow>(
      `${SELECT_VERSION} WHERE kind = $1 AND org_id = $2 AND object_id = $3 AND version = $4`,
      [kind, orgId, id, version],
    );
    return row;
  },

  async latest(
    db: Queryable,
    kind: VersionKind,
    orgId: number,
    id: number,
  ): Promise<VersionRow | undefined> {
    const [row] = await db.query<VersionRow>(
      `${SELECT_VERSION} WHERE kind = $1 AND org_id = $2 AND object_id = $3
        ORDER BY version DESC LIMIT 1`,
      [kind, orgId, id],
    );
    return row;
  },
};

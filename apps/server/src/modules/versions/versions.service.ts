import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync, constants } from 'node:zlib';
import type { Queryable } from '../../db/client.js';
import {
  versionsRepository as repo,
  type ContentInsert,
  type VersionRow,
} from './versions.repository.js';

/**
 * The version store. Each version of a policy, firewall ruleset, profile or device's routes/NAT
 * records the SHA-256 of what was rendered (the text itself is kept once per distinct content in
 * `rendered_contents`), the definition it was rendered from (what a rollback restores), when,
 * and who. Writers call `recordVersions` in the transaction that bumps a version; readers use
 * `listVersions`, `versionAt` and `renderedContent`. Nothing else reads these tables.
 */
export type VersionKind = 'policy' | 'firewall_ruleset' | 'profile' | 'device_network';

/** Bodies larger than this are gzipped (a policy's rules file: megabytes, a tenth gzipped). */
const COMPRESS_FROM = 4096;

export interface VersionItem {
  orgId: number;
  /** The object's id (a device's id for `device_network`). */
  id: number;
  /** What a rollback restores (see the kinds' definitions in docs/ARCHITECTURE.md). */
  definition: unknown;
  /** Counts shown in a version list: `rule_count`, `variable_count`, `route_count`, … */
  summary?: Record<string, number>;
  /** Who made it: a user's e-mail, or the job's name for the server's own work. */
  actor: string;
  cause?: 'edit' | 'rollback';
  /** For a rollback: the version restored. */
  restoredFrom?: number;
  /**
   * Policies only: the version the policies table holds and the rendered text (rules file,
   * `\0`, threshold.config), whose SHA-256 is the policy's `rendered_sha256`. Other kinds are
   * versioned by their definition: its canonical text is their rendered content.
   */
  rendered?: { version: number; sha256: string; body: string };
}

export interface VersionSummary {
  version: number;
  sha256: string;
  summary: Record<string, number>;
  created_at: Date;
  actor_name: string;
  cause: 'edit' | 'rollback' | 'baseline';
  restored_from: number | null;
}
export type StoredVersion = VersionRow;

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

function contentInsert(sha256: string, body: string): ContentInsert {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length < COMPRESS_FROM) {
    return { sha256, encoding: 'identity', base64: bytes.toString('base64'), size: bytes.length };
  }
  // Level 1: about as small for rule text as the default, several times faster.
  const gzipped = gzipSync(bytes, { level: constants.Z_BEST_SPEED });
  return { sha256, encoding: 'gzip', base64: gzipped.toString('base64'), size: bytes.length };
}

const base = (item: VersionItem) => ({
  orgId: item.orgId,
  id: item.id,
  definition: item.definition,
  summary: item.summary ?? {},
  actor: item.actor,
  cause: item.cause ?? 'edit',
  restoredFrom: item.restoredFrom ?? null,
});

/**
 * Records new versions in the caller's transaction, in one statement however many items.
 * Policies: every item is recorded as the version it names (the caller bumped it), and each
 * distinct body is stored once. Other kinds: an item is recorded, as the object's latest
 * version + 1, only when its definition differs from that version's (a no-op save adds none).
 * Answers the versions recorded for definition-versioned kinds (policies: []).
 */
export async function recordVersions(
  tx: Queryable,
  kind: VersionKind,
  items: VersionItem[],
): Promise<{ id: number; version: number }[]> {
  if (items.length === 0) return [];
  if (kind !== 'policy') return repo.recordDefinitions(tx, kind, items.map(base));
  const contents = new Map<string, ContentInsert>();
  const rows = items.flatMap((item) => {
    const rendered = item.rendered;
    if (!rendered) throw new Error('recordVersions: a policy version needs its rendered text');
    if (!contents.has(rendered.sha256))
      contents.set(rendered.sha256, contentInsert(rendered.sha256, rendered.body));
    return [{ ...base(item), version: rendered.version, sha256: rendered.sha256 }];
  });
  await repo.recordRendered(tx, kind, rows, [...contents.values()]);
  return [];
}

/**
 * Stores rendered texts without a version (a policy's baseline, recorded by the migration with
 * its hash only, gets its text at the first render). One statement.
 */
export async function storeContents(
  tx: Queryable,
  bodies: { sha256: string; body: string }[],
): Promise<void> {
  const unique = new Map(bodies.map((b) => [b.sha256, b.body]));
  await repo.recordRendered(
    tx,
    'policy',
    [],
    [...unique].map(([sha256, body]) => contentInsert(sha256, body)),
  );
}

/** A rendered text by its SHA-256, or null when it was never stored. */
export async function renderedContent(db: Queryable, sha256: string): Promise<string | null> {
  const row = await repo.content(db, sha256);
  if (!row) return null;
  const bytes = Buffer.from(row.body, 'base64');
  return (row.encoding === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** A policy's stored content split back into its two files. */
export function policyFiles(content: string): { rules: string; thresholds: string } {
  const cut = content.indexOf('\0');
  if (cut === -1) return { rules: content, thresholds: '' };
  return { rules: content.slice(0, cut), thresholds: content.slice(cut + 1) };
}

/** The object's versions, newest first. The caller has checked the object is the org's. */
export function listVersions(
  db: Queryable,
  kind: VersionKind,
  orgId: number,
  id: number,
  page: { limit: number; offset: number } = { limit: 50, offset: 0 },
): Promise<{ rows: VersionSummary[]; total: number }> {
  return repo.list(db, kind, orgId, id, page);
}

/** One version with its definition, or undefined. */
export function versionAt(
  db: Queryable,
  kind: VersionKind,
  orgId: number,
  id: number,
  version: number,
): Promise<StoredVersion | undefined> {
  return repo.at(db, kind, orgId, id, version);
}

/** The object's newest recorded version, or undefined. */
export function latestVersion(
  db: Queryable,
  kind: VersionKind,
  orgId: number,
  id: number,
): Promise<StoredVersion | undefined> {
  return repo.latest(db, kind, orgId, id);
}

export const versionsService = {
  recordVersions,
  storeContents,
  renderedContent,
  listVersions,
  versionAt,
  latestVersion,
};

/**
 * The answer to a rollback of a definition-versioned object: `recorded` is the new version, or
 * undefined when the object already had that version's definition (nothing written).
 */
export function rollbackAnswer(
  restoredFrom: number,
  recorded: number | undefined,
  current: number | undefined,
  deviceCount: number,
  what: string,
) {
  const changed = recorded !== undefined;
  return {
    version: recorded ?? current ?? restoredFrom,
    restored_from: restoredFrom,
    changed,
    device_count: deviceCount,
    render_differs: null,
    skipped: [],
    msg: changed
      ? `Version ${restoredFrom} of the ${what} restored as version ${recorded}`
      : `The ${what} is already as in version ${restoredFrom}: nothing changed`,
  };
}

import type { RollbackResponse, VersionDiff, VersionKind, VersionList } from '@palisade/contract';
import type { Database } from '../../db/client.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { compareVersions } from './version-compare.js';
import { latestVersion, listVersions } from './versions.service.js';

/** What the versions API needs of the module owning each kind. */
export interface VersionedKind {
  /** Refuses (404) an object that is not the caller's organization's; devices it reaches. */
  context(
    principal: Principal,
    id: number,
  ): Promise<{ deviceCount: number; variables?: Record<string, string> }>;
  /** Restores a version as the next one, audited, reaching devices as any edit does. */
  rollback(
    principal: Principal,
    id: number,
    body: { version: number; override_lockout: boolean },
  ): Promise<RollbackResponse>;
}
export type VersionedKinds = Record<VersionKind, VersionedKind>;

/** The routes' service: checks, then the version store and each kind's own module. */
export function createVersionsService(db: Database, kinds: VersionedKinds) {
  return {
    async list(
      principal: Principal,
      kind: VersionKind,
      id: number,
      page: { limit: number; offset: number },
    ): Promise<VersionList> {
      const { deviceCount } = await kinds[kind].context(principal, id);
      const [{ rows, total }, latest] = await Promise.all([
        listVersions(db, kind, principal.orgId, id, page),
        latestVersion(db, kind, principal.orgId, id),
      ]);
      return {
        data: rows.map((row) => ({
          version: row.version,
          created_at: row.created_at.toISOString(),
          actor_name: row.actor_name,
          cause: row.cause,
          restored_from: row.restored_from,
          sha256: row.sha256,
          summary: row.summary,
          current: row.version === latest?.version,
        })),
        recordsTotal: total,
        device_count: deviceCount,
      };
    },

    async diff(
      principal: Principal,
      kind: VersionKind,
      id: number,
      a: number,
      b: number,
    ): Promise<VersionDiff> {
      const context = await kinds[kind].context(principal, id);
      return compareVersions(
        db,
        { kind, orgId: principal.orgId, id },
        a,
        b,
        context.variables ? { variables: context.variables } : {},
      );
    },

    async rollback(
      principal: Principal,
      kind: VersionKind,
      id: number,
      body: { version: number; override_lockout: boolean },
    ): Promise<RollbackResponse> {
      assertRole(principal, ...EDITOR_ROLES);
      return kinds[kind].rollback(principal, id, body);
    },
  };
}

import {
  SECRET_CODE_PLACEHOLDER,
  type ListQuery,
  type ListResponse,
  type RejectedLine,
  type RuleChange,
  type RuleSource,
  type RuleSourceCatalogueEntry,
  type RuleSourceCreate,
  type RuleSourceHeader,
  type RuleSourceUpdate,
  type RuleSourceUpdateSummary,
} from '@palisade/contract';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { orConflict } from '../../db/errors.js';
import { buildListSql } from '../../db/list-query.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { changedFields, recordAudit, userActor } from '../audit/audit.service.js';
import { presentChange, presentSource, presentUpdate } from './rule-sources.presenter.js';
import {
  CHANGE_LIST_SPEC,
  sourceUpdatesRepository as updates,
  UPDATE_LIST_SPEC,
} from './rule-source-updates.repository.js';
import {
  ruleSourcesRepository as repo,
  SOURCE_LIST_SPEC,
  type SourceRow,
  type SourceWrite,
} from './rule-sources.repository.js';
import { catalogueFor } from './source-catalogue.js';
import type { SourceUpdateRunner } from './source-runner.js';
import { SECRET_CONTEXT } from './source-update.js';

const nameTaken = (name: string) => `A rule source named "${name}" already exists`;

/** A source whose address holds the secret's placeholder needs a secret code. */
function checkSecret(url: string, checksumUrl: string | null, hasSecret: boolean) {
  const needs = [url, checksumUrl].some((u) => u?.includes(SECRET_CODE_PLACEHOLDER));
  if (needs && !hasSecret) {
    throw new AppError(
      'validation_failed',
      `The URL holds ${SECRET_CODE_PLACEHOLDER}: enter the secret code`,
      [{ field: 'secret_code', msg: `required by ${SECRET_CODE_PLACEHOLDER} in the URL` }],
    );
  }
}

/**
 * What a record keeps of a source: its settings, not its fetch state (which the runner moves).
 * `has_secret` and `header_names` say a secret is there; its value is never read here.
 */
const auditedSource = (source: RuleSource) => ({
  name: source.name,
  url: source.url,
  checksum_url: source.checksum_url,
  catalogue_id: source.catalogue_id,
  has_secret: source.has_secret,
  header_names: source.header_names,
  schedule: source.schedule,
  enabled: source.enabled,
});

export function createRuleSourcesService(deps: {
  db: Database;
  secrets: SecretBox;
  runner: SourceUpdateRunner;
}) {
  const { db, secrets, runner } = deps;

  async function load(tx: Queryable, orgId: number, id: number): Promise<SourceRow> {
    const row = await repo.find(tx, orgId, id);
    if (!row) throw notFound('Rule source');
    return row;
  }

  async function present(tx: Queryable, row: SourceRow): Promise<RuleSource> {
    const last = await updates.lastUpdates(tx, [row.id]);
    return presentSource(row, last.get(row.id));
  }

  const sealHeaders = (id: number, headers: RuleSourceHeader[]) =>
    headers.length > 0 ? secrets.seal(JSON.stringify(headers), SECRET_CONTEXT.headers(id)) : null;
  const sealSecret = (id: number, secret: string | null) =>
    secret ? secrets.seal(secret, SECRET_CONTEXT.secret(id)) : null;

  return {
    async list(principal: Principal, query: ListQuery): Promise<ListResponse<RuleSource>> {
      const { rows, total } = await repo.list(
        db,
        buildListSql(query, SOURCE_LIST_SPEC, [principal.orgId]),
      );
      const last = await updates.lastUpdates(
        db,
        rows.map((row) => row.id),
      );
      return {
        data: rows.map((row) => presentSource(row, last.get(row.id))),
        recordsTotal: total,
      };
    },

    get: async (principal: Principal, id: number) =>
      present(db, await load(db, principal.orgId, id)),

    catalogue(
      _principal: Principal,
      suricataVersion: string,
    ): { data: RuleSourceCatalogueEntry[] } {
      return { data: catalogueFor(suricataVersion) };
    },

    async create(
      principal: Principal,
      body: z.output<typeof RuleSourceCreate>,
    ): Promise<RuleSource> {
      assertRole(principal, ...EDITOR_ROLES);
      const secret = body.secret_code || null;
      checkSecret(body.url, body.checksum_url, secret !== null);
      return db
        .transaction(async (tx) => {
          const write: SourceWrite = {
            name: body.name,
            url: body.url,
            checksum_url: body.checksum_url,
            catalogue_id: body.catalogue_id,
            secret_ciphertext: null,
            headers_ciphertext: null,
            header_names: body.headers.map((h) => h.name),
            schedule: body.schedule,
            enabled: body.enabled,
          };
          const id = await orConflict(
            () => repo.insert(tx, principal.orgId, write),
            nameTaken(body.name),
          );
          // Sealed once the id is known: each ciphertext is bound to its source and column.
          if (secret || body.headers.length > 0) {
            await repo.update(
              tx,
              id,
              {
                ...write,
                secret_ciphertext: sealSecret(id, secret),
                headers_ciphertext: sealHeaders(id, body.headers),
              },
              { address: false, schedule: false },
            );
          }
          const created = await present(tx, await load(tx, principal.orgId, id));
          await recordAudit(tx, {
            orgId: principal.orgId,
            actor: userActor(principal),
            action: 'create',
            object: { type: 'rule_source', id, name: created.name },
            after: auditedSource(created),
          });
          return created;
        })
        .finally(() => runner.kick());
    },

    async update(
      principal: Principal,
      id: number,
      body: z.output<typeof RuleSourceUpdate>,
    ): Promise<RuleSource> {
      assertRole(principal, ...EDITOR_ROLES);
      return db.transaction(async (tx) => {
        const current = await load(tx, principal.orgId, id);
        const secretCiphertext =
          body.secret_code === undefined
            ? current.secret_ciphertext
            : sealSecret(id, body.secret_code || null);
        const write: SourceWrite = {
          name: body.name ?? current.name,
          url: body.url ?? current.url,
          checksum_url: body.checksum_url === undefined ? current.checksum_url : body.checksum_url,
          catalogue_id: current.catalogue_id,
          secret_ciphertext: secretCiphertext,
          headers_ciphertext: body.headers
            ? sealHeaders(id, body.headers)
            : current.headers_ciphertext,
          header_names: body.headers ? body.headers.map((h) => h.name) : current.header_names,
          schedule: body.schedule ?? current.schedule,
          enabled: body.enabled ?? current.enabled,
        };
        checkSecret(write.url, write.checksum_url, write.secret_ciphertext !== null);
        const changed = {
          // A new address, secret or headers may fetch something else: the next fetch is whole.
          address:
            write.url !== current.url ||
            write.checksum_url !== current.checksum_url ||
            body.secret_code !== undefined ||
            body.headers !== undefined,
          schedule:
            JSON.stringify(write.schedule) !== JSON.stringify(current.schedule) ||
            write.enabled !== current.enabled,
        };
        await orConflict(() => repo.update(tx, id, write, changed), nameTaken(write.name));
        const updated = await present(tx, await load(tx, principal.orgId, id));
        const diff = changedFields(
          auditedSource(await present(tx, current)),
          auditedSource(updated),
        );
        // A new secret or header value says so, and never what it is.
        const secrets = {
          ...(body.secret_code !== undefined ? { secret_code: 'secret changed' } : {}),
          ...(body.headers !== undefined ? { header_values: 'secret changed' } : {}),
        };
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'update',
          object: { type: 'rule_source', id, name: updated.name },
          before: diff.before,
          after: { ...diff.after, ...secrets },
        });
        return updated;
      });
    },

    /** Deletes the source and its history; its groups stay, as ordinary file groups. */
    async remove(principal: Principal, id: number): Promise<void> {
      assertRole(principal, ...EDITOR_ROLES);
      await db.transaction(async (tx) => {
        const source = await load(tx, principal.orgId, id);
        if (!(await repo.remove(tx, principal.orgId, id))) throw notFound('Rule source');
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'delete',
          object: { type: 'rule_source', id, name: source.name },
          before: auditedSource(await present(tx, source)),
        });
      });
    },

    /** Queues an update now (or answers the one already queued or running). */
    async requestUpdate(principal: Principal, id: number): Promise<{ update_id: number }> {
      assertRole(principal, ...EDITOR_ROLES);
      const updateId = await db.transaction(async (tx) => {
        const source = await load(tx, principal.orgId, id);
        const queued = await updates.enqueue(
          tx,
          { orgId: principal.orgId, sourceId: source.id },
          principal.email,
        );
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'update_now',
          object: { type: 'rule_source', id, name: source.name },
          after: { update_id: queued },
        });
        return queued;
      });
      runner.kick();
      return { update_id: updateId };
    },

    async listUpdates(
      principal: Principal,
      id: number,
      query: ListQuery,
    ): Promise<ListResponse<RuleSourceUpdateSummary>> {
      await load(db, principal.orgId, id);
      const { rows, total } = await updates.listUpdates(
        db,
        buildListSql(query, UPDATE_LIST_SPEC, [principal.orgId, id]),
      );
      return { data: rows.map(presentUpdate), recordsTotal: total };
    },

    async getUpdate(
      principal: Principal,
      id: number,
      updateId: number,
    ): Promise<RuleSourceUpdateSummary & { warnings: RejectedLine[] }> {
      const row = await updates.findUpdate(db, principal.orgId, id, updateId);
      if (!row) throw notFound('Update');
      return { ...presentUpdate(row), warnings: row.warnings };
    },

    async listChanges(
      principal: Principal,
      id: number,
      updateId: number,
      query: ListQuery,
    ): Promise<ListResponse<RuleChange>> {
      if (!(await updates.findUpdate(db, principal.orgId, id, updateId))) throw notFound('Update');
      const { rows, total } = await updates.listChanges(
        db,
        buildListSql(query, CHANGE_LIST_SPEC, [principal.orgId, updateId]),
      );
      return { data: rows.map(presentChange), recordsTotal: total };
    },

    async ruleChanges(
      principal: Principal,
      key: { gid: number; sid: number; limit: number },
    ): Promise<{ data: RuleChange[] }> {
      return { data: (await updates.ruleChanges(db, principal.orgId, key)).map(presentChange) };
    },
  };
}

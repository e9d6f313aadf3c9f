import { SECRET_CODE_PLACEHOLDER, type RejectedLine } from '@palisade/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit, serverActor } from '../audit/audit.service.js';
import { SecretUnreadable, type SecretBox } from '../../lib/secret-box.js';
import { UploadBudget } from '../../lib/uploads.js';
import { refreshPoliciesHolding } from '../policies/policies.service.js';
import { UploadStage, unpackUpload } from '../rules/rule-archive.js';
import { importRules, type ImportedRuleChange } from '../rules/rules-import.js';
import {
  sourceUpdatesRepository as updates,
  type ChangeRecord,
  type ClaimedUpdate,
} from './rule-source-updates.repository.js';
import { ruleSourcesRepository as sources, type SourceRow } from './rule-sources.repository.js';
import {
  readDownload,
  SourceFetchError,
  type FetchRequest,
  type SourceFetcher,
} from './source-fetch.js';

export interface UpdateEngine {
  db: Database;
  secrets: SecretBox;
  fetcher: SourceFetcher;
  dataDir: string;
  importMaxBytes: number;
  leaseMs: number;
  log: FastifyBaseLogger;
}

/** The claim passed to another replica (our lease ran out): its run is the one that counts. */
class LostClaim extends Error {}

const MAX_WARNINGS = 1000;

/** Where a source's sealed values are bound (a ciphertext opens only in its own column). */
export const SECRET_CONTEXT = {
  secret: (id: number) => `rule_sources.secret:${id}`,
  headers: (id: number) => `rule_sources.headers:${id}`,
};

/** The fetch of a source: its secret code filled into its addresses, its headers opened. */
export function fetchRequestOf(source: SourceRow, secrets: SecretBox): FetchRequest {
  let secret = '';
  let headers: Record<string, string> = {};
  try {
    if (source.secret_ciphertext)
      secret = secrets.open(source.secret_ciphertext, SECRET_CONTEXT.secret(source.id));
    if (source.headers_ciphertext) {
      headers = Object.fromEntries(
        (
          JSON.parse(
            secrets.open(source.headers_ciphertext, SECRET_CONTEXT.headers(source.id)),
          ) as { name: string; value: string }[]
        ).map((h) => [h.name, h.value]),
      );
    }
  } catch (error) {
    if (!(error instanceof SecretUnreadable)) throw error;
    throw new SourceFetchError(
      "the stored secret code or headers cannot be read (the server's SECRET_KEY changed): enter the secret code again",
    );
  }
  if (source.url.includes(SECRET_CODE_PLACEHOLDER) && !secret)
    throw new SourceFetchError(`${source.url} needs a secret code: enter it in the source`);
  const target = (url: string) => ({
    url: url.replaceAll(SECRET_CODE_PLACEHOLDER, encodeURIComponent(secret)),
    shownUrl: url,
    headers,
  });
  return {
    archive: target(source.url),
    checksum: source.checksum_url ? target(source.checksum_url) : null,
    etag: source.etag,
    lastModified: source.last_modified,
    lastChecksum: source.last_checksum,
  };
}

/**
 * Runs one claimed update: fetch (conditional, checksum first) → unpack → import as the
 * source's groups, re-render the policies whose rules changed and write the changelog, all in
 * one transaction → the update's summary. Any failure leaves every rule as it was and records
 * why on the update.
 */
export async function runUpdate(engine: UpdateEngine, claim: ClaimedUpdate): Promise<void> {
  const { db } = engine;
  const source = await sources.find(db, claim.org_id, claim.source_id);
  if (!source) return; // deleted meanwhile, its updates with it
  const stage = await UploadStage.open(engine.dataDir);
  let bytes = 0;
  try {
    const fetched = await engine.fetcher.fetch(fetchRequestOf(source, engine.secrets), stage.dir);
    bytes = fetched.bytes;
    if (fetched.kind === 'not-modified' || fetched.sha256 === source.content_sha256) {
      await updates.finish(db, claim, { status: 'unchanged', bytes });
      return;
    }
    if (!(await updates.setPhase(db, claim, 'importing', engine.leaseMs))) throw new LostClaim();
    const upload = await unpackUpload(fetched.fileName, readDownload(fetched.file), {
      budget: new UploadBudget(engine.importMaxBytes),
      stage,
    });
    await db.transaction(async (tx) => {
      if (!(await updates.holdClaim(tx, claim))) throw new LostClaim();
      await updates.lockOrgImports(tx, claim.org_id);
      const { report, touched, changes } = await importRules(tx, claim.org_id, [upload], {
        strict: false,
        source: { id: source.id, name: source.name },
        collectChanges: true,
      });
      const policiesBumped = await refreshPoliciesHolding(
        tx,
        claim.org_id,
        touched,
        `rule source ${source.name}`,
      );
      // A rule two files hold with different texts is written twice by every import; when it
      // ends as it was stored, nothing changed.
      const records = changes
        .filter((change) => change.kind !== 'changed' || change.oldText !== change.newText)
        .map(changeRecord);
      await updates.insertChanges(tx, claim, records);
      await sources.recordFetch(tx, source.id, {
        etag: fetched.etag,
        lastModified: fetched.lastModified,
        checksum: fetched.checksum,
        contentSha256: fetched.sha256,
      });
      const warnings: RejectedLine[] = [...report.rejected, ...report.warnings];
      const finished = await updates.finish(tx, claim, {
        status: 'succeeded',
        bytes,
        counts: countKinds(records),
        policiesBumped,
        warnings: warnings.slice(0, MAX_WARNINGS),
        warningCount: report.rejected.length + report.warning_count,
      });
      if (!finished) throw new LostClaim();
      // The server changed the organization's rules: its record, with the update's counts.
      await recordAudit(tx, {
        orgId: claim.org_id,
        actor: serverActor('rule source update'),
        action: 'import',
        object: { type: 'rule_source', id: source.id, name: source.name },
        after: { update_id: claim.id, ...countKinds(records), policies_bumped: policiesBumped },
      });
    });
  } catch (error) {
    if (error instanceof LostClaim) {
      engine.log.warn({ update: claim.id }, 'rule source update taken over by another replica');
      return;
    }
    const reason = failureOf(error);
    if (reason === undefined)
      engine.log.error({ err: error, update: claim.id }, 'rule source update failed');
    await updates.finish(db, claim, {
      status: 'failed',
      bytes,
      error: reason ?? `internal error: ${(error as Error).message}`,
    });
  } finally {
    await stage.remove();
  }
}

/** Why an update failed, as the console shows it; undefined for an unexpected error. */
function failureOf(error: unknown): string | undefined {
  if (error instanceof SourceFetchError) return error.message;
  if (error instanceof AppError) {
    // The unpacker and the importer name the file and the limit or the damage.
    return error.message;
  }
  return undefined;
}

/** A rule whose text changed only by being commented in or out was enabled or disabled. */
function changeRecord(change: ImportedRuleChange): ChangeRecord {
  let kind: ChangeRecord['kind'] = change.kind;
  if (change.kind === 'changed' && change.oldText !== null && change.newText !== null) {
    const oldOn = !isCommentedOut(change.oldText);
    const newOn = !isCommentedOut(change.newText);
    if (oldOn !== newOn && uncommented(change.oldText) === uncommented(change.newText))
      kind = newOn ? 'enabled' : 'disabled';
  }
  return { ...change, kind };
}

const isCommentedOut = (text: string) => /^\s*#/.test(text);
const uncommented = (text: string) => text.replace(/^\s*#+\s*/, '').trim();

function countKinds(records: ChangeRecord[]) {
  const counts = { added: 0, removed: 0, changed: 0, enabled: 0, disabled: 0 };
  for (const record of records) counts[record.kind] += 1;
  return counts;
}

import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { openDatabase, type Database } from '../../db/client.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  signIn,
  startTestServer,
  until,
  type TestServer,
} from '../../test/harness.js';
import { sourceDays } from '../../test/source-days.js';
import {
  ruleArchive,
  sourceApi,
  startSourceServer,
  type SourceServer,
} from '../../test/source-server.js';

const SECRET_KEY = 'rule-source-replicas-secret-key-0123456789';
const ENV = { SECRET_KEY, JOB_CHECK_SECONDS: '1' };

describe('rule sources on two server replicas with one schedule', () => {
  let a: TestServer;
  let b: FastifyInstance;
  /** Replica B's connections: on PostgreSQL its own pool, on PGlite the same database. */
  let bDb: Database;
  let source: SourceServer;
  let client: ReturnType<typeof sourceApi>;

  const replica = async () =>
    buildApp({
      config: loadConfig({
        ...ENV,
        DATA_DIR: a.dataDir,
        LOG_LEVEL: 'silent',
        AGENT_RELEASE_DIR: path.join(a.dataDir, 'agent-release'),
      }),
      db: bDb,
    });

  beforeAll(async () => {
    a = await startTestServer(ENV);
    bDb = a.databaseUrl ? await openDatabase({ databaseUrl: a.databaseUrl, dataDir: '' }) : a.db;
    b = await replica();
    await b.ready();
    source = await startSourceServer();
    source.set('/shared/emerging.rules.tar.gz', { body: await ruleArchive(sourceDays().first) });
    client = sourceApi(a, await signIn(a.app, ADMIN_EMAIL, ADMIN_PASSWORD));
  });
  afterAll(async () => {
    await b?.close();
    if (bDb !== a?.db) await bDb?.close();
    await a?.close();
    await source?.close();
  });

  const updatesOf = (id: number) =>
    a.db.query<{ status: string; trigger: string }>(
      'SELECT status, trigger FROM rule_source_updates WHERE source_id = $1 ORDER BY id',
      [id],
    );
  const archiveRequests = () =>
    source.hits.filter((hit) => hit.path === '/shared/emerging.rules.tar.gz').length;
  /** Waits until each replica has finished two more looks, the second begun after this call. */
  const bothLookedTwice = async () => {
    const replicas = [a.app, b];
    const since = replicas.map((app) => app.ruleSourceUpdates.looks());
    await until('both replicas to look twice more', () =>
      replicas.every((app, i) => app.ruleSourceUpdates.looks() >= (since[i] ?? 0) + 2)
        ? true
        : undefined,
    );
  };

  it('runs a due update exactly once, on whichever replica claims it; a restart does not repeat it', async () => {
    // Created disabled, then made due for both replicas at once (creating it due would let the
    // creating replica start it before the other looks).
    const created = await client.create({
      name: 'scheduled',
      url: source.url('/shared/emerging.rules.tar.gz'),
      schedule: { kind: 'interval', hours: 6 },
      enabled: false,
    });
    await a.db.query(
      'UPDATE rule_sources SET enabled = true, next_update_at = now() WHERE id = $1',
      [created.id],
    );
    await until('the scheduled update', async () => {
      const rows = await updatesOf(created.id);
      return rows.some((row) => row.status === 'succeeded') ? rows : undefined;
    });
    // Both replicas looked again since, and neither started the update a second time.
    await bothLookedTwice();
    expect(await updatesOf(created.id)).toEqual([{ status: 'succeeded', trigger: 'schedule' }]);
    expect(archiveRequests()).toBe(1);
    const [next] = await a.db.query<{ hours: number }>(
      `SELECT round(extract(epoch FROM next_update_at - now()) / 3600)::int AS hours
         FROM rule_sources WHERE id = $1`,
      [created.id],
    );
    expect(next?.hours).toBe(6);

    await b.close();
    b = await replica();
    await b.ready();
    await bothLookedTwice();
    expect(await updatesOf(created.id)).toHaveLength(1);
  });

  it('takes over an update whose replica died mid-run once its lease has passed', async () => {
    const created = await client.create({
      name: 'orphaned',
      url: source.url('/shared/emerging.rules.tar.gz'),
    });
    const [row] = await a.db.query<{ id: number }>(
      `INSERT INTO rule_source_updates (org_id, source_id, trigger, status, phase, started_at,
         claim_token, lease_until)
       SELECT org_id, id, 'manual', 'running', 'importing', now() - interval '20 minutes',
              'a replica that died', now() - interval '1 second'
         FROM rule_sources WHERE id = $1 RETURNING id`,
      [created.id],
    );
    const done = await until('the takeover', async () => {
      const [update] = await a.db.query<{ status: string; claim_token: string }>(
        'SELECT status, claim_token FROM rule_source_updates WHERE id = $1',
        [row?.id ?? -1],
      );
      return update && update.status !== 'running' ? update : undefined;
    });
    // Same archive as the first source: nothing new to import, but the fetch ran.
    expect(['succeeded', 'unchanged']).toContain(done.status);
    expect(done.claim_token).not.toBe('a replica that died');
  });

  it('sets a daily source due at its next time of day (UTC)', async () => {
    const created = await client.create({
      name: 'daily',
      url: source.url('/shared/emerging.rules.tar.gz'),
    });
    const edited = await client.edit(created.id, { schedule: { kind: 'daily', time: '03:00' } });
    const next = new Date(edited.next_update_at ?? '');
    expect(next.getUTCHours()).toBe(3);
    expect(next.getUTCMinutes()).toBe(0);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementText, type Queryable } from '../../db/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { sourceUpdatesRepository } from './rule-source-updates.repository.js';

// "Update now" while an update is queued or running answers that one; it must also hold when
// that update ends between the queueing statement and the look for it (seen once under load).
describe('queueing a rule source update', () => {
  let server: TestServer;
  let source: { orgId: number; sourceId: number };
  beforeAll(async () => {
    server = await startTestServer();
    const [row] = await server.db.query<{ org_id: number; id: number }>(
      `INSERT INTO rule_sources (org_id, name, url, schedule)
       SELECT id, 'queued', 'https://rules.example.com/a.tar.gz', '{}'::jsonb FROM organizations LIMIT 1
       RETURNING org_id, id`,
    );
    source = { orgId: row?.org_id ?? 0, sourceId: row?.id ?? 0 };
  });
  afterAll(() => server.close());

  const pendingIds = async () =>
    (
      await server.db.query<{ id: number }>(
        `SELECT id FROM rule_source_updates WHERE source_id = $1 AND status IN ('queued', 'running')`,
        [source.sourceId],
      )
    ).map((row) => row.id);

  it('answers the pending update, and queues a new one if it ended meanwhile', async () => {
    const first = await server.db.transaction((tx) =>
      sourceUpdatesRepository.enqueue(tx, source, 'admin@example.com'),
    );
    expect(
      await server.db.transaction((tx) =>
        sourceUpdatesRepository.enqueue(tx, source, 'admin@example.com'),
      ),
    ).toBe(first);

    // The pending update ends right after the insert that conflicted with it.
    const second = await server.db.transaction(async (tx) => {
      let ended = false;
      const endingAfterConflict: Queryable = {
        query: async (sql, params) => {
          const rows = await tx.query(sql, params);
          if (!ended && statementText(sql).includes('ON CONFLICT') && rows.length === 0) {
            ended = true;
            await tx.query(`UPDATE rule_source_updates SET status = 'succeeded' WHERE id = $1`, [
              first,
            ]);
          }
          return rows as never;
        },
        copyFrom: (copySql, rows) => tx.copyFrom(copySql, rows),
      };
      return sourceUpdatesRepository.enqueue(endingAfterConflict, source, 'admin@example.com');
    });
    expect(second).not.toBe(first);
    expect(await pendingIds()).toEqual([second]);
  });
});

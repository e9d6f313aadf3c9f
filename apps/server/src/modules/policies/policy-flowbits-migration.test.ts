import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate.js';
import { postFiles } from '../../test/corpus.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { rerenderAfterMigrations } from './policies.service.js';

const MIGRATION = '20261126120000_policy_resolve_flowbits';

describe('the flowbits migration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('re-renders existing policies, so their version names the text devices get', async () => {
    const admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await postFiles(server.app, '/rules/import', admin, [
      {
        name: 'flows.rules',
        bytes: [
          'alert http any any -> any any (msg:"b"; flowbits:isset,ET.a; sid:5300001; rev:1;)',
          '# alert http any any -> any any (msg:"a"; flowbits:set,ET.a; sid:5300002; rev:1;)',
        ].join('\n'),
      },
    ]);
    const [group] = (
      await api(server.app, { method: 'GET', url: '/groups/?filter=name:flows', headers: admin })
    ).json<{ data: { id: number }[] }>().data;
    // As rendered before the migration: without flowbit resolution.
    const created = await api(server.app, {
      method: 'POST',
      url: '/policies/',
      headers: admin,
      payload: { name: 'Old', group_ids: [group?.id], resolve_flowbits: false },
    });
    const before = created.json<{ id: number; version: number; rule_count: number }>();
    expect(before.rule_count).toBe(1);
    await server.db.query('ALTER TABLE policies DROP COLUMN resolve_flowbits');
    await server.db.query('DELETE FROM schema_migrations WHERE version = $1', [MIGRATION]);

    expect(await migrate(server.db, rerenderAfterMigrations)).toEqual([MIGRATION]);

    const [after] = await server.db.query<{ version: number; rule_count: number }>(
      'SELECT version, rule_count FROM policies WHERE id = $1',
      [before.id],
    );
    expect(after).toEqual({ version: before.version + 1, rule_count: 2 });
  });
});

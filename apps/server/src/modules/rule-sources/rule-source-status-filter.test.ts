import type { RuleSource } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { signInOtherOrganization } from '../../test/fixtures.js';
import { sourceApi } from '../../test/source-server.js';

describe('rule sources: the list filtered by the last update', () => {
  let server: TestServer;
  let admin: { authorization: string };
  let other: { authorization: string };

  /** Records updates of the source, oldest first, as the runner would have left them. */
  const updates = async (sourceId: number, statuses: string[]) => {
    for (const status of statuses) {
      await server.db.query(
        `INSERT INTO rule_source_updates (org_id, source_id, status, trigger, started_at,
                                          finished_at, claim_token, lease_until, error)
         SELECT org_id, id, $2, 'manual', now(),
                CASE WHEN $2 = 'running' THEN NULL ELSE now() END,
                -- A running update's lease is far off: no runner takes it over meanwhile.
                CASE WHEN $2 = 'running' THEN 'test' END,
                CASE WHEN $2 = 'running' THEN now() + interval '1 hour' END,
                CASE WHEN $2 = 'failed' THEN 'HTTP 404' END
           FROM rule_sources WHERE id = $1`,
        [sourceId, status],
      );
    }
  };
  const listed = async (filter: string, headers = admin) => {
    const response = await api(server.app, {
      url: `/rulesources/?limit=100&sortBy=name&filter=${encodeURIComponent(filter)}`,
      headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: RuleSource[]; recordsTotal: number }>();
  };
  const names = async (filter: string) => (await listed(filter)).data.map((s) => s.name);

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const client = sourceApi(server, admin);
    const create = async (name: string) =>
      (await client.create({ name, url: `https://rules.example/${name}.rules` })).id;
    await updates(await create('broken'), ['succeeded', 'failed']);
    await updates(await create('fixed'), ['failed', 'succeeded']);
    await updates(await create('same'), ['succeeded', 'unchanged']);
    await updates(await create('busy'), ['failed', 'running']);
    await create('new');

    other = await signInOtherOrganization(server.app);
    await updates(
      (await sourceApi(server, other).create({ name: 'b-broken', url: 'https://b.example/r' })).id,
      ['failed'],
    );
  });
  afterAll(() => server.close());

  it('takes the newest update: failed, succeeded (or unchanged), running, never', async () => {
    expect(await names('status:failed')).toEqual(['broken']);
    expect(await names('status:succeeded')).toEqual(['fixed', 'same']);
    expect(await names('status:running')).toEqual(['busy']);
    expect(await names('status:never')).toEqual(['new']);
    // With the other terms, and counted as filtered.
    const failedOrNot = await listed('status:failed,broken');
    expect(failedOrNot.recordsTotal).toBe(1);
    expect(await names('status:succeeded,same')).toEqual(['same']);
    expect((await listed('status:failed', other)).data.map((s) => s.name)).toEqual(['b-broken']);
  });

  it('refuses a status it does not know', async () => {
    const response = await api(server.app, {
      url: `/rulesources/?filter=${encodeURIComponent("status:x' OR 1=1")}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain('failed, succeeded, running, never');
  });
});

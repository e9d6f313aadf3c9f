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
import { rerenderAfterMigrations } from '../policies/policies.service.js';

const MIGRATION = '20261127020000_versions';

describe('the versions migration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('records every existing object as its version, with each policy text stored', async () => {
    const admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const call = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      (
        await api(server.app, { method, url, headers: admin, ...(payload ? { payload } : {}) })
      ).json<T>();
    await postFiles(server.app, '/rules/import', admin, [
      {
        name: 'old.rules',
        bytes: 'alert tcp any any -> any 22 (msg:"ssh"; sid:6300001; rev:1;)\n',
      },
    ]);
    const [group] = (await call<{ data: { id: number }[] }>('GET', '/groups/?filter=name:old'))
      .data;
    const policy = await call<{ id: number }>('POST', '/policies/', {
      name: 'Old',
      group_ids: [group?.id],
    });
    await call('PUT', `/policies/${policy.id}`, {
      thresholds: [{ kind: 'suppress', sid: 6300001 }],
    });
    const ruleset = await call<{ id: number }>('POST', '/fwruleset/', {
      name: 'Old',
      rules: [{ chain: 'input', action: 'accept', protocol: 'tcp', destination_ports: '22' }],
    });
    const profile = await call<{ id: number }>('POST', '/deviceconfigurationprofiles/', {
      name: 'Old',
      variables: { HOME_NET: '[10.0.0.0/8]' },
    });
    const device = await call<{ id: number }>('POST', '/devices/', {
      name: 'old-1',
      password: 'device-secret-1234',
    });
    // As a database from before the version history.
    await server.db.query('DROP TABLE object_versions');
    await server.db.query('DROP TABLE rendered_contents');
    await server.db.query('DELETE FROM schema_migrations WHERE version = $1', [MIGRATION]);

    expect(await migrate(server.db, rerenderAfterMigrations)).toEqual([MIGRATION]);

    for (const base of [
      `/policies/${policy.id}`,
      `/fwruleset/${ruleset.id}`,
      `/deviceconfigurationprofiles/${profile.id}`,
      `/devices/${device.id}/network`,
    ]) {
      const list = await call<{ data: { version: number; cause: string; actor_name: string }[] }>(
        'GET',
        `${base}/versions`,
      );
      expect(list.data, base).toHaveLength(1);
      expect(list.data[0], base).toMatchObject({ cause: 'baseline', actor_name: 'server' });
    }
    const [baseline] = (
      await call<{ data: { version: number }[] }>('GET', `/policies/${policy.id}/versions`)
    ).data;
    expect(baseline?.version).toBe(2);
    // The policy's text was stored at the migration's render: a later version compares with it.
    await call('PUT', `/policies/${policy.id}`, { thresholds: [] });
    const diff = await call<{ thresholds: { removed: number }; changed_fields: string[] }>(
      'GET',
      `/policies/${policy.id}/versions/2/diff/3`,
    );
    expect(diff.thresholds.removed).toBe(1);
    expect(diff.changed_fields).toEqual(['thresholds']);
    // A save of what the baseline recorded adds no version (the same canonical definition).
    await call('PUT', `/fwruleset/${ruleset.id}`, {
      name: 'Old',
      rules: [{ chain: 'input', action: 'accept', protocol: 'tcp', destination_ports: '22' }],
    });
    await call('PUT', `/deviceconfigurationprofiles/${profile.id}`, {
      variables: { HOME_NET: '[10.0.0.0/8]' },
    });
    for (const base of [`/fwruleset/${ruleset.id}`, `/deviceconfigurationprofiles/${profile.id}`]) {
      const list = await call<{ recordsTotal: number }>('GET', `${base}/versions`);
      expect(list.recordsTotal, base).toBe(1);
    }
  });
});

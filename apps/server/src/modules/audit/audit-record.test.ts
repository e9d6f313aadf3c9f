import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate.js';
import { createScratchDatabase, type ScratchDatabase } from '../../test/harness.js';
import { changedFields, recordAudit, serverActor } from './audit.service.js';

describe('recordAudit', () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    await migrate(scratch.db);
  });
  afterAll(() => scratch.drop());

  const count = async () =>
    (await scratch.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log'))[0]?.n;

  it('keeps no record of a change that rolled back, and every record of one that committed', async () => {
    const entry = {
      orgId: 1,
      actor: { kind: 'user', id: 7, name: 'ann@example.com', requestId: 'req-1' } as const,
      action: 'update' as const,
      object: { type: 'policy' as const, id: 3, name: 'DMZ' },
      before: { name: 'dmz' },
      after: { name: 'DMZ' },
    };
    await expect(
      scratch.db.transaction(async (tx) => {
        await recordAudit(tx, entry);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await count()).toBe(0);

    await scratch.db.transaction((tx) =>
      recordAudit(tx, entry, {
        orgId: 1,
        actor: serverActor('expiry'),
        action: 'expire',
        object: { type: 'firewall_ruleset', id: null, name: null },
      }),
    );
    const rows = await scratch.db.query(
      `SELECT actor_kind, actor_id, actor_name, action, object_type, object_id, object_name,
              before, after, request_id FROM audit_log ORDER BY id`,
    );
    expect(rows).toEqual([
      {
        actor_kind: 'user',
        actor_id: 7,
        actor_name: 'ann@example.com',
        action: 'update',
        object_type: 'policy',
        object_id: '3',
        object_name: 'DMZ',
        before: { name: 'dmz' },
        after: { name: 'DMZ' },
        request_id: 'req-1',
      },
      {
        actor_kind: 'server',
        actor_id: null,
        actor_name: 'expiry',
        action: 'expire',
        object_type: 'firewall_ruleset',
        object_id: null,
        object_name: null,
        before: null,
        after: null,
        request_id: null,
      },
    ]);
  });
});

describe('changedFields', () => {
  it('keeps only what differs and never an omitted key', () => {
    expect(
      changedFields(
        { name: 'a', rules: [1, 2], password_hash: 'x', same: true },
        { name: 'b', rules: [1, 2], password_hash: 'y', same: true },
        ['password_hash'],
      ),
    ).toEqual({ before: { name: 'a' }, after: { name: 'b' } });
  });
});

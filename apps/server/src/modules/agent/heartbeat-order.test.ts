// A heartbeat and an apply report of one device are written by separate group writes, so a beat
// sent just before the apply (carrying the versions from before it) can commit just after the
// report. It must not put the old versions back: the device would show "Update Pending" until
// its next beat.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, api, signIn, startTestServer } from '../../test/harness.js';
import type { TestServer } from '../../test/harness.js';
import { agentRepository } from './agent.repository.js';

describe('a heartbeat received before an apply report', () => {
  let server: TestServer;
  let deviceId: number;
  let tokenVersion: number;

  const local = async () => {
    const [row] = await server.db.query<{ config: number | null; policy: number | null }>(
      `SELECT config_version_local AS config, policy_version_local AS policy
         FROM devices WHERE id = $1`,
      [deviceId],
    );
    return row;
  };
  const beat = (seen: Date, config: number, policy: number) =>
    agentRepository.heartbeats(server.db, [
      {
        deviceId,
        tokenVersion,
        seen,
        beat: {
          state: 'running',
          local: { config_version: config, policy_version: policy },
          agent_version: '0.3.0',
        },
      },
    ]);

  beforeAll(async () => {
    server = await startTestServer();
    const admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const created = await api(server.app, {
      method: 'POST',
      url: '/devices/',
      headers: admin,
      payload: { name: 'sensor-1', password: 'device-secret-1234' },
    });
    deviceId = created.json<{ id: number }>().id;
    const [row] = await server.db.query<{ token_version: number }>(
      'SELECT token_version FROM devices WHERE id = $1',
      [deviceId],
    );
    tokenVersion = row!.token_version;
  }, 120_000);
  afterAll(() => server.close());

  it('keeps the applied versions; a later beat sets them again', async () => {
    const sentBefore = new Date(Date.now() - 1000);
    const reported = new Date(Date.now() - 500);
    const [applied] = await agentRepository.appliedMany(server.db, [
      {
        deviceId,
        tokenVersion,
        versions: { config: 5, policy: 7 },
        error: null,
        received: reported,
      },
    ]);
    expect(applied).not.toBeNull();

    // Written after the report, received before it: the versions from before the apply.
    expect(await beat(sentBefore, 4, 6)).toHaveLength(1);
    expect(await local()).toEqual({ config: 5, policy: 7 });

    // Received after the report: the agent's versions, whatever they are now.
    await beat(new Date(), 5, 8);
    expect(await local()).toEqual({ config: 5, policy: 8 });
  });
});

import type { DeploymentDetail } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  until,
  type TestServer,
} from '../../test/harness.js';

describe('the deploy gate job', () => {
  let server: TestServer;
  let admin: { authorization: string };

  beforeAll(async () => {
    server = await startTestServer({ JOB_CHECK_SECONDS: '1' });
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(() => server.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    api(server.app, { method, url, headers: admin, ...(payload ? { payload } : {}) });

  it('rolls back, on its own, a canary that never sent a heartbeat', async () => {
    const profile = (
      await call('POST', '/deviceconfigurationprofiles/', {
        name: 'gate',
        variables: { HOME_NET: '[10.0.0.0/8]' },
      })
    ).json<{ id: number }>().id;
    const device = (
      await call('POST', '/devices/', {
        name: 'never-seen',
        password: 'device-secret-1234',
        profile_id: profile,
      })
    ).json<{ id: number }>().id;
    await call('PUT', '/organization/settings', {
      deploy_mode: 'staged',
      canary_heartbeat_grace_seconds: 10,
    });
    await call('PUT', `/deviceconfigurationprofiles/${profile}`, {
      variables: { HOME_NET: '[10.9.0.0/16]' },
    });
    const created = await call('POST', '/deployments/', {
      device_ids: [device],
      canary: { device_ids: [device] },
    });
    const { id } = created.json<DeploymentDetail>();
    const decided = await until('the gate to decide', async () => {
      const deployment = (await call('GET', `/deployments/${id}`)).json<DeploymentDetail>();
      return deployment.status === 'canary' ? undefined : deployment;
    });
    expect(decided).toMatchObject({
      status: 'rolled_back',
      failure: { device_name: 'never-seen', condition: 'heartbeat_lost' },
    });
  }, 30_000);
});

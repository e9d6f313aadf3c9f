import type { ChangePreview, PendingDeployments } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

describe('a change preview says which deploy mode applies', () => {
  let server: TestServer;
  let admin: { authorization: string };
  let profile: number;
  const devices: number[] = [];

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    api(server.app, { method, url, headers: admin, ...(payload ? { payload } : {}) });
  const preview = async (value: string) => {
    const response = await call('PUT', `/deviceconfigurationprofiles/${profile}/preview`, {
      variables: { HOME_NET: value },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ChangePreview>();
  };
  const change = (id: number, old: string, now: string) => ({
    id,
    policy: null,
    nftables_diff: null,
    routes_diff: null,
    variables: { added: [], removed: [], changed: [{ name: 'HOME_NET', old, new: now }] },
  });

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const created = await call('POST', '/deviceconfigurationprofiles/', {
      name: 'sensors',
      variables: { HOME_NET: '[10.1.0.0/16]' },
    });
    profile = created.json<{ id: number }>().id;
    for (const name of ['sensor-a', 'sensor-b']) {
      const device = await call('POST', '/devices/', {
        name,
        password: 'device-secret-1234',
        profile_id: profile,
      });
      devices.push(device.json<{ id: number }>().id);
    }
  }, 120_000);
  afterAll(() => server.close());

  it('applying at once: the devices receive the change, against what they were saved', async () => {
    const answer = await preview('[10.2.0.0/16]');
    expect(answer).toMatchObject({
      deploy_mode: 'immediate',
      devices_reached: 2,
      devices: devices.map((id) => change(id, '[10.1.0.0/16]', '[10.2.0.0/16]')),
    });
  });

  it('staged: saved, not sent, with what the next deploy would send each device', async () => {
    const staged = await call('PUT', '/organization/settings', { deploy_mode: 'staged' });
    expect(staged.statusCode).toBe(200);
    // A first save waits for a deploy: the devices still run 10.1.
    const saved = await call('PUT', `/deviceconfigurationprofiles/${profile}`, {
      variables: { HOME_NET: '[10.2.0.0/16]' },
    });
    expect(saved.statusCode).toBe(200);
    const pendingBefore = (await call('GET', '/deployments/pending')).json<PendingDeployments>();

    const answer = await preview('[10.3.0.0/16]');
    // Against what is deployed (10.1), not what was last saved (10.2): the next deploy's diff.
    expect(answer).toMatchObject({
      deploy_mode: 'staged',
      devices_reached: 2,
      config_changed: 2,
      devices: devices.map((id) => change(id, '[10.1.0.0/16]', '[10.3.0.0/16]')),
    });
    // It answers the same shape as the Deploy page's diff would after the save.
    const pendingDiff = await call('GET', `/devices/${devices[0]}/pending-deploy`);
    expect(pendingDiff.json()).toMatchObject(
      change(devices[0] ?? 0, '[10.1.0.0/16]', '[10.2.0.0/16]'),
    );
    // The preview saved nothing.
    expect((await call('GET', '/deployments/pending')).json()).toEqual(pendingBefore);
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PendingDeployments } from '@palisade/contract';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { renderGuarded } from '../../../testing/render-guarded';
import { DeployPage } from './DeployPage';

const versions = (config: number) => ({ config_version: config, policy_id: 3, policy_version: 7 });
const pending: PendingDeployments = {
  deploy_mode: 'staged',
  data: ['edge-a', 'edge-b', 'edge-c'].map((name, index) => ({
    device_id: index + 1,
    device_name: name,
    deployed: versions(1),
    saved: versions(2),
    config_changed: true,
    policy_changed: false,
    in_deployment: null,
  })),
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the Deploy page', () => {
  it('deploys the chosen devices with the chosen canaries first', async () => {
    const api = installFakeApi({
      'GET deployments/pending': { body: pending },
      'GET deployments/': { body: { data: [], recordsTotal: 0 } },
      'POST deployments/': { status: 201, body: { id: 1 } },
    });
    renderScreen(<DeployPage admin={false} canWrite />, '/deploy');

    await screen.findByText('edge-b');
    expect(screen.getAllByText('config 1 · policy #3 v7')).toHaveLength(3);
    fireEvent.click(screen.getByLabelText('Use edge-b as a canary'));
    fireEvent.click(screen.getByLabelText('Deploy to edge-c'));
    fireEvent.click(screen.getByRole('button', { name: 'Deploy to 2 devices, 1 as canary first' }));
    await waitFor(() =>
      expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
        device_ids: [2, 3],
        canary: { device_ids: [2] },
      }),
    );
  });

  it('shows a lock-out refusal, and an Administrator deploys anyway', async () => {
    const refusal = 'edge-b would lose loopback: add an input rule accepting iif lo';
    const api = installFakeApi({
      'GET deployments/pending': { body: pending },
      'GET deployments/': { body: { data: [], recordsTotal: 0 } },
      'GET organization/settings': {
        body: {
          deploy_mode: 'staged',
          canary_wait_minutes: 15,
          canary_alert_factor: 3,
          canary_heartbeat_grace_seconds: 180,
        },
      },
      'POST deployments/': (call) =>
        (call.body as { override_lockout?: boolean }).override_lockout === true
          ? { status: 201, body: { id: 1 } }
          : { status: 422, body: { code: 'lockout', msg: refusal, details: [] } },
    });
    // An Administrator's page holds the settings form, an editor: rendered under the guard.
    renderGuarded(<DeployPage admin canWrite />, '/deploy');
    fireEvent.click(await screen.findByLabelText('Deploy to edge-b'));
    fireEvent.click(screen.getByRole('button', { name: 'Deploy to 1 devices' }));
    const refused = await screen.findByRole('dialog', {
      name: 'This change would cut a device off',
    });
    expect(within(refused).getByTestId('lockout-message').textContent).toBe(refusal);
    fireEvent.click(within(refused).getByRole('button', { name: 'Apply anyway' }));
    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
        { device_ids: [2] },
        { device_ids: [2], override_lockout: true },
      ]),
    );
  });

  it('offers no Deploy to a Viewer, and says when saves apply at once', async () => {
    installFakeApi({
      'GET deployments/pending': { body: { deploy_mode: 'immediate', data: [] } },
      'GET deployments/': { body: { data: [], recordsTotal: 0 } },
    });
    renderScreen(<DeployPage admin={false} canWrite={false} />, '/deploy');
    await screen.findByText(/applies every save to its devices at once/);
    expect(screen.queryByRole('button', { name: /^Deploy to/ })).toBeNull();
  });
});

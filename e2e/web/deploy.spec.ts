// Staged deploys (issue 18 item 6): an Administrator stages the organization's changes, a
// save shows as "not deployed", a deploy with a canary is sent from the Deploy page, and the
// canary gate's failure (the canary never sends a heartbeat) appears live with its reason.
// The organization applies saves at once again at the end: the other specs expect it.
import { ADMIN } from '../lib/env.ts';
import { apiCall, assert, choose, openSignedIn, visible, waitForNotice } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

/** The canary's grace (10 s), then the next look for due jobs (JOB_CHECK_SECONDS, 5 in global-setup.ts). */
const GATE_TIMEOUT_MS = 30_000;

test('deploy: a staged save waits, a canary deploy fails its gate and rolls back, live', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const call = (method: string, path: string, body?: unknown) =>
    apiCall(baseUrl, token, method, path, body);
  const suffix = Date.now().toString(36);
  const profile = await call('POST', 'deviceconfigurationprofiles/', {
    name: `staged ${suffix}`,
    variables: { HOME_NET: '[10.0.0.0/8]' },
  });
  const canary = `canary-${suffix}`;
  const rest = `rest-${suffix}`;
  for (const name of [canary, rest]) {
    await call('POST', 'devices/', {
      name,
      password: 'device-secret-1234',
      profile_id: profile.id,
    });
  }
  try {
    await openSignedIn(page, '/deploy');
    const settings = page.getByTestId('deploy-settings');
    await choose(page, 'When saves reach devices', 'Stage changes until deployed');
    await settings.getByLabel('Heartbeat grace (seconds)').fill('10');
    await settings.getByRole('button', { name: 'Save' }).click();
    await waitForNotice(page, 'Deploy settings saved');

    await call('PUT', `deviceconfigurationprofiles/${profile.id}`, {
      variables: { HOME_NET: '[10.1.0.0/16]' },
    });
    await visible(page.getByTestId('pending-deploy-banner').getByText('2 changes not deployed.'));
    const pending = page.getByTestId('pending-deployments');
    await visible(pending.getByText(canary));
    // What the deploy would send: the variable that changed, before and after.
    await pending.getByRole('button', { name: canary }).click();
    const diff = pending.getByTestId('change-review-device');
    await visible(diff.getByText('Variables'));
    await visible(diff.getByText('~ HOME_NET: [10.0.0.0/8] → [10.1.0.0/16]'));
    await page.getByLabel(`Use ${canary} as a canary`).check();
    await page.getByLabel(`Deploy to ${rest}`).check();
    await shot('deploy-pending');
    await page.getByRole('button', { name: 'Deploy to 2 devices, 1 as canary first' }).click();
    await waitForNotice(page, 'Deployment started');
    const deployments = page.getByTestId('deployments');
    await visible(deployments.getByText('Canary running'));
    await visible(pending.getByText(/In deployment \d+/));

    // The canary never sends a heartbeat: the gate rolls it back and says so, live.
    await visible(
      deployments.getByText(`Rolled back: ${canary} — stopped sending heartbeats`, {
        exact: false,
      }),
      GATE_TIMEOUT_MS,
    );
    await shot('deploy-rolled-back');
    const [latest] = (await call('GET', 'deployments/?limit=1')).data;
    assert.equal(latest.status, 'rolled_back');
    assert.equal(latest.failure.condition, 'heartbeat_lost');
  } finally {
    await call('PUT', 'organization/settings', {
      deploy_mode: 'immediate',
      canary_heartbeat_grace_seconds: 180,
    });
  }
});

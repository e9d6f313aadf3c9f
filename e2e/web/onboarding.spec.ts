// Issue 15, sensor onboarding in the browser: a new device's dialog gives the install one-liner,
// which, run in a scratch root with the test systemctl, installs the server's own agent build,
// enrols it and starts it, and the device turns Online with its agent version. An agent older
// than the server's is marked, and an Administrator's upgrade request shows as pending.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN, ROOT } from '../lib/env.ts';
import { apiCall, assert, choose, signIn, uniqueEmail, visible, waitForNotice } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

/** The install part's systemctl for tests: records calls and really runs the unit it starts. */
const FAKE_SYSTEMCTL = path.join(ROOT, 'apps/agent/src/testing/fake-systemctl.mjs');
const ONLINE_TIMEOUT = 45_000;

/** Runs a shell command line; resolves with its exit code and output. */
function run(
  commandLine: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', commandLine], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** The server's agent build, as the download manifest names it. */
async function serverAgentVersion(baseUrl: string) {
  const response = await fetch(`${baseUrl}/api/v1/agent/download/`);
  assert.equal(response.status, 200, 'the e2e server serves the built agent release');
  return (await response.json()).version;
}

/** A device the test speaks for through the agent protocol, reporting an old agent version. */
async function oldAgent(baseUrl: string, admin: string, name: string) {
  const password = 'old-agent-secret-2026';
  const device = await apiCall(baseUrl, admin, 'POST', 'devices/', { name, password });
  const login = await fetch(`${baseUrl}/api/v1/agent/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ device_id: device.id, password, agent_version: '0.1.0', protocol: 1 }),
  }).then((response) => response.json());
  await apiCall(baseUrl, login.access_token, 'POST', 'agent/heartbeat', {
    state: 'running',
    local: { config_version: null, policy_version: null },
    agent_version: '0.1.0',
  });
  return device;
}

test('onboarding: the one-liner from a new device’s dialog installs, enrols and starts the agent', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const version = await serverAgentVersion(baseUrl);
  const admin = await api.token(ADMIN.email, ADMIN.password);
  const policy = await apiCall(baseUrl, admin, 'POST', 'policies/', {
    name: `Onboarding ${Date.now().toString(36)}`,
  });
  const name = `sensor-${Date.now().toString(36)}`;
  await signIn(page);
  await page.getByRole('button', { name: 'New device' }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Name', { exact: true }).fill(name);
  await choose(page, 'Policy', policy.name);
  await form.getByRole('button', { name: 'Create device' }).click();
  await waitForNotice(page, 'Device created');

  const dialog = page.getByRole('dialog', { name: `Enrol ${name} as a sensor` });
  const commandBlock = dialog.getByLabel('Install command', { exact: true });
  await visible(commandBlock);
  const command = (await commandBlock.textContent()) ?? '';
  const script = `${baseUrl}/api/v1/agent/install.sh`;
  assert.match(
    command,
    new RegExp(
      `^curl -fsSL ${script} \\| sudo sh -s -- --server ${baseUrl} --token pse_\\d+_[\\w-]{43}$`,
    ),
  );
  assert.match((await dialog.getByTestId('enrolment-expiry').textContent()) ?? '', /expires/);
  await shot('enrol-dialog');
  await dialog.getByRole('button', { name: 'Close' }).click();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await visible(row.getByTestId('device-status').getByText('Unknown', { exact: true }));

  // As root on a sensor; here root is the test's user already (sudo is not installed).
  const scratch = await mkdtemp(path.join(tmpdir(), 'palisade-onboarding-'));
  const root = path.join(scratch, 'root');
  await mkdir(root);
  const systemd = {
    SYSTEMCTL: FAKE_SYSTEMCTL,
    FAKE_SYSTEMCTL_ROOT: root,
    FAKE_SYSTEMCTL_DIR: path.join(scratch, 'systemctl'),
    FAKE_SYSTEMCTL_RESTART_SEC: '1',
  };
  try {
    const install = await run(
      `${command.replace('| sudo sh', '| sh')} --root ${root} --flavor node-module`,
      systemd,
    );
    assert.equal(install.code, 0, `install.sh failed:\n${install.output}`);
    await visible(
      row.getByTestId('device-status').getByText('Online', { exact: true }),
      ONLINE_TIMEOUT,
    );
    await visible(row.getByTestId('agent-version').getByText(version, { exact: true }));
    assert.equal(await row.getByText('Outdated', { exact: true }).count(), 0);
    await shot('enrolled-online');
  } finally {
    // The unit's supervisor and agent run detached; the test systemctl stops them by pid.
    await run(`${FAKE_SYSTEMCTL} stop palisade-agent.service`, systemd);
    await rm(scratch, { recursive: true, force: true });
  }
});

test('onboarding: an outdated agent is marked; Administrator upgrades one and a selection', async ({
  page,
  browser,
  api,
  baseUrl,
  shot,
}) => {
  const version = await serverAgentVersion(baseUrl);
  const admin = await api.token(ADMIN.email, ADMIN.password);
  const stamp = Date.now().toString(36);
  const first = await oldAgent(baseUrl, admin, `old-a-${stamp}`);
  const second = await oldAgent(baseUrl, admin, `old-b-${stamp}`);

  // An Operator edits devices but does not upgrade agents.
  const email = uniqueEmail('operator');
  await api.createUser(admin, { email, password: 'Operator12!', role: 'Operator' });
  const operator = await browser.newContext({ baseURL: baseUrl, locale: 'en-US' });
  try {
    const operatorPage = await operator.newPage();
    await signIn(operatorPage, { email, password: 'Operator12!' });
    const row = operatorPage.getByRole('row', { name: new RegExp(first.name) });
    await visible(row.getByText('Outdated', { exact: true }));
    await visible(row.getByRole('button', { name: `Enrol ${first.name}` }));
    assert.equal(await row.getByRole('button', { name: /^Upgrade agent on/ }).count(), 0);
    assert.equal(
      await operatorPage.getByRole('button', { name: 'Upgrade all outdated' }).count(),
      0,
    );
  } finally {
    await operator.close();
  }

  await signIn(page);
  const firstRow = page.getByRole('row', { name: new RegExp(first.name) });
  const secondRow = page.getByRole('row', { name: new RegExp(second.name) });
  await visible(firstRow.getByTestId('agent-version').getByText('0.1.0', { exact: true }));
  await firstRow.getByText('Outdated', { exact: true }).hover();
  await visible(page.getByRole('tooltip', { name: new RegExp(`\\(${version}\\)`) }));
  await shot('agent-outdated');

  await firstRow.getByRole('button', { name: `Upgrade agent on ${first.name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Upgrade', exact: true }).click();
  await waitForNotice(page, `Devices asked to upgrade to ${version}: 1`);
  await visible(firstRow.getByTestId('agent-version').getByText(`0.1.0 → ${version}`));
  await visible(firstRow.getByText('Upgrading', { exact: true }));
  assert.equal(
    await firstRow.getByRole('button', { name: `Upgrade agent on ${first.name}` }).count(),
    0,
  );

  await secondRow.getByRole('checkbox', { name: `Select ${second.name}` }).check();
  await page.getByRole('button', { name: 'Upgrade selected agents (1)' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Upgrade', exact: true }).click();
  await waitForNotice(page, `Devices asked to upgrade to ${version}: 1`);
  await visible(secondRow.getByTestId('agent-version').getByText(`0.1.0 → ${version}`));
  await visible(page.getByRole('button', { name: 'Upgrade selected agents (0)' }));
  assert.equal(await page.getByRole('button', { name: 'Upgrade all outdated' }).isDisabled(), true);
  const listed = await api.get(admin, `devices/?limit=10&offset=0&filter=name:${second.name}`);
  assert.equal(listed.data[0]?.upgrade?.version, version);
  await shot('agent-upgrading');
});

// Version history (issue 18, item 2): a policy, a firewall ruleset, a profile and a device's
// routes and NAT, each edited twice in the console, keep their versions; History opened from
// the editor compares two (what the edits changed shows) and rolling back to an earlier one
// makes a new version, after a confirmation naming the devices it reaches, equal to it.
import type { Locator, Page } from '@playwright/test';
import { ADMIN } from '../lib/env.ts';
import { apiCall, assert, openSignedIn, visible, waitForNotice } from '../lib/ui.ts';
import {
  arrangePolicy,
  compareVersions,
  expectVersions,
  rollBack,
  versionHistory,
} from '../lib/versions.ts';
import { test } from '../fixtures.ts';

const SAFE = [
  { chain: 'input', action: 'accept', in_interface: 'lo', comment: 'loopback' },
  { chain: 'input', action: 'accept', states: ['established', 'related'], comment: 'replies' },
];

/** Opens an editor from its list row, saves what `edit` changes, and waits for it to close. */
async function editAndSave(
  page: Page,
  {
    open,
    editor,
    edit,
    saved,
  }: {
    open: () => Promise<unknown>;
    editor: Locator;
    edit: (editor: Locator) => Promise<unknown>;
    saved: string;
  },
) {
  await open();
  await visible(editor);
  await edit(editor);
  await editor.getByRole('button', { name: 'Save' }).click();
  await waitForNotice(page, saved);
  await editor.waitFor({ state: 'detached' });
}

test('versions: a policy edited twice is compared and rolled back as a new version', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const name = `History ${Date.now().toString(36)}`;
  await arrangePolicy(baseUrl, token, name);
  await openSignedIn(page, '/policies');

  // Two edits in the editor: each disables one more rule (versions 2 and 3).
  for (const sid of [7810002, 7810003]) {
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const editor = page.getByRole('dialog', { name: `Edit ${name}` });
    await editor.getByRole('tab', { name: /^Overrides/ }).click();
    await editor.getByRole('checkbox', { name: `Select rule ${sid}` }).check();
    await editor.getByRole('button', { name: 'Disable selected' }).click();
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
  }

  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'History' }).click();
  const history = versionHistory(page, name);
  await expectVersions(history, 3);

  // The newest two are compared at first; compare 1 with 3 instead.
  await visible(history.diff.getByText('Changes from version 2 to version 3'));
  await compareVersions(history, 1, 3);
  await visible(history.diff.getByText('Rules: 0 added, 2 removed, 0 changed, 1 unchanged'));
  const removed = history.diff.getByTestId('version-removed');
  assert.equal(await removed.count(), 2);
  assert.match((await removed.first().textContent()) ?? '', /E2E history telnet/);
  await shot('versions-compare');

  await rollBack(history, { version: 1, next: 4, devices: 0 });
  await expectVersions(history, 4, { restores: 1 });
  await visible(history.diff.getByText('Changes from version 3 to version 4'));
  await visible(history.diff.getByText('Rules: 2 added, 0 removed, 0 changed, 1 unchanged'));
  await history.dialog.getByRole('button', { name: 'Close' }).click();

  // The policy is as in version 1 again: all three rules render.
  const row = page.getByRole('row', { name: new RegExp(name) });
  await visible(row.getByRole('cell', { name: '3', exact: true }));
});

test('versions: a firewall ruleset edited twice is compared and rolled back', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  test.slow(); // a long flow: three times the suite's time-out
  const token = await api.token(ADMIN.email, ADMIN.password);
  const name = `Versioned ${Date.now().toString(36)}`;
  await apiCall(baseUrl, token, 'POST', 'fwruleset/', {
    name,
    rules: [
      ...SAFE,
      {
        chain: 'input',
        action: 'accept',
        protocol: 'tcp',
        destination_ports: '22',
        comment: 'ssh',
      },
    ],
  });
  await openSignedIn(page, '/firewall');
  const open = () =>
    page
      .getByRole('row', { name: new RegExp(name) })
      .getByRole('button', { name: `Edit ${name}` })
      .click();
  const editor = page.getByRole('dialog', { name: `Ruleset ${name}` });
  const comments = () => editor.getByTestId('rule-comment').allTextContents();
  const saved = 'Ruleset successfully updated';

  // Version 2 adds a rule for 8443; version 3 moves ssh from port 22 to 2222.
  await editAndSave(page, {
    open,
    editor,
    saved,
    edit: async () => {
      await editor.getByRole('button', { name: 'Add rule' }).click();
      const rule = page.getByRole('dialog', { name: 'New rule', exact: true });
      await rule.getByLabel('Destination ports').fill('8443');
      await rule.getByLabel('Comment').fill('console');
      await rule.getByRole('button', { name: 'Add rule' }).click();
      await rule.waitFor({ state: 'detached' });
    },
  });
  await editAndSave(page, {
    open,
    editor,
    saved,
    edit: async () => {
      await editor.getByRole('button', { name: 'Edit rule 3' }).click();
      const rule = page.getByRole('dialog', { name: 'Rule 3', exact: true });
      await rule.getByLabel('Destination ports').fill('2222');
      await rule.getByRole('button', { name: 'Apply' }).click();
      await rule.waitFor({ state: 'detached' });
    },
  });

  await open();
  await editor.getByRole('button', { name: 'History' }).click();
  const history = versionHistory(page, name);
  await expectVersions(history, 3);
  await compareVersions(history, 1, 3);
  await visible(history.diff.getByText('Rules: 1 added, 0 removed, 1 changed, 2 unchanged'));
  assert.match(await history.diff.getByTestId('version-added').innerText(), /dport 8443/);
  const changed = (await history.diff.getByTestId('version-changed').innerText()).split('\n');
  assert.ok(
    changed.some((line) => /dport 22 # ssh/.test(line)),
    changed.join('\n'),
  );
  assert.ok(
    changed.some((line) => /dport 2222 # ssh/.test(line)),
    changed.join('\n'),
  );
  const script = (await history.diff.getByTestId('version-unified').innerText()).split('\n');
  for (const [sign, port] of [
    ['+', 8443],
    ['+', 2222],
    ['-', 22],
  ] as const) {
    assert.ok(
      script.some((line) => line.startsWith(sign) && line.includes(`dport ${port} `)),
      `the nftables diff has ${sign} dport ${port}:\n${script.join('\n')}`,
    );
  }
  await shot('versions-ruleset-compare');

  // Rolled back, the editor closes on what it held; opened again it shows version 1.
  await rollBack(history, { version: 1, next: 4, devices: 0 });
  await editor.waitFor({ state: 'detached' });
  await open();
  await visible(editor.getByTestId('rule-comment').getByText('ssh', { exact: true }));
  assert.deepEqual(await comments(), ['loopback', 'replies', 'ssh']);
  await editor.getByRole('button', { name: 'History' }).click();
  await expectVersions(history, 4, { restores: 1 });
  await compareVersions(history, 1, 4);
  await visible(history.diff.getByText('Rules: 0 added, 0 removed, 0 changed, 3 unchanged'));
  await visible(history.diff.getByText('No change.'));
  await history.dialog.getByRole('button', { name: 'Close' }).click();
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await editor.waitFor({ state: 'detached' });
});

test('versions: a profile edited twice is compared and rolled back', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  test.slow(); // a long flow: three times the suite's time-out
  const token = await api.token(ADMIN.email, ADMIN.password);
  const name = `Site ${Date.now().toString(36)}`;
  await apiCall(baseUrl, token, 'POST', 'deviceconfigurationprofiles/', {
    name,
    variables: { HOME_NET: '[10.0.0.0/8]' },
  });
  await openSignedIn(page, '/firewall?tab=profiles');
  const open = () =>
    page
      .getByRole('row', { name: new RegExp(name) })
      .getByRole('button', { name: `Edit ${name}` })
      .click();
  const editor = page.getByRole('dialog', { name: `Edit ${name}` });
  const saved = 'Profile saved';

  // Version 2 widens HOME_NET; version 3 adds HTTP_PORTS.
  await editAndSave(page, {
    open,
    editor,
    saved,
    edit: () => editor.getByLabel('Value of HOME_NET').fill('[10.1.0.0/16]'),
  });
  await editAndSave(page, {
    open,
    editor,
    saved,
    edit: async () => {
      await editor.getByRole('button', { name: 'Add variable' }).click();
      await editor
        .getByLabel(/^Variable name \d+$/)
        .last()
        .fill('HTTP_PORTS');
      await editor.getByLabel('Value of HTTP_PORTS').fill('80');
    },
  });

  await open();
  await editor.getByRole('button', { name: 'History' }).click();
  const history = versionHistory(page, name);
  await expectVersions(history, 3);
  await compareVersions(history, 1, 3);
  const added = history.diff.getByTestId('version-added');
  await visible(added);
  assert.match(await added.innerText(), /HTTP_PORTS = 80/);
  const changed = await history.diff.getByTestId('version-changed').innerText();
  assert.match(changed, /HOME_NET = \[10\.0\.0\.0\/8\]/);
  assert.match(changed, /HOME_NET = \[10\.1\.0\.0\/16\]/);
  await shot('versions-profile-compare');

  await rollBack(history, { version: 1, next: 4, devices: 0 });
  await editor.waitFor({ state: 'detached' });
  await open();
  await visible(editor);
  assert.equal(await editor.getByLabel('Value of HOME_NET').inputValue(), '[10.0.0.0/8]');
  assert.equal(await editor.getByLabel('Value of HTTP_PORTS').count(), 0);
  await editor.getByRole('button', { name: 'History' }).click();
  await expectVersions(history, 4, { restores: 1 });
  await compareVersions(history, 1, 4);
  await visible(history.diff.getByText('No change.'));
  assert.equal(await history.diff.getByTestId('version-added').count(), 0);
  await history.dialog.getByRole('button', { name: 'Close' }).click();
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await editor.waitFor({ state: 'detached' });
});

test("versions: a device's routes and NAT edited twice are compared and rolled back", async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  test.slow(); // a long flow: three times the suite's time-out
  const token = await api.token(ADMIN.email, ADMIN.password);
  const device = await apiCall(baseUrl, token, 'POST', 'devices/', {
    name: `routed-${Date.now().toString(36)}`,
    password: 'versions-device-pw-1',
  });
  await openSignedIn(page, `/firewall?tab=network&device=${device.id}`);
  const addRoute = async (destination: string) => {
    await page.getByRole('button', { name: 'Add route' }).click();
    const route = page.getByRole('dialog', { name: 'New route' });
    await route.getByLabel('Destination').fill(destination);
    await route.getByLabel('Gateway').fill('192.168.1.1');
    await route.getByRole('button', { name: 'Add route' }).click();
    await route.waitFor({ state: 'detached' });
  };
  const save = async () => {
    await page.getByRole('button', { name: 'Save routes and NAT' }).click();
    const review = page.getByRole('dialog', { name: 'Review changes' });
    await review.getByRole('button', { name: 'Save and send to 1' }).click();
    await waitForNotice(page, 'Routes and NAT saved');
    await review.waitFor({ state: 'detached' });
  };

  // Version 1 is the device's empty network; 2 routes 10.20/16 in L3 mode, 3 adds 10.30/16.
  await page.getByRole('switch', { name: /L3 mode/ }).check();
  await addRoute('10.20.0.0/16');
  await save();
  await addRoute('10.30.0.0/16');
  await save();

  await page.getByRole('button', { name: `History of ${device.name}` }).click();
  const history = versionHistory(page, device.name);
  await expectVersions(history, 3);
  await compareVersions(history, 1, 3);
  await visible(history.diff.getByText(/^Routes \(\d+ lines added/));
  const routes = await history.diff.getByTestId('version-unified').first().innerText();
  assert.match(routes, /^\+ip -4 route replace 10\.20\.0\.0\/16 via 192\.168\.1\.1/m);
  assert.match(routes, /^\+ip -4 route replace 10\.30\.0\.0\/16 via 192\.168\.1\.1/m);
  await compareVersions(history, 2, 3);
  const second = await history.diff.getByTestId('version-unified').first().innerText();
  assert.doesNotMatch(second, /^\+ip -4 route replace 10\.20\.0\.0\/16/m);
  assert.match(second, /^\+ip -4 route replace 10\.30\.0\.0\/16/m);
  await shot('versions-network-compare');

  // Back to version 2: the history stays open and the editor below shows its one route.
  await rollBack(history, { version: 2, next: 4, devices: 1 });
  await expectVersions(history, 4, { restores: 2 });
  await compareVersions(history, 2, 4);
  assert.equal(await history.diff.getByText('No change.').count(), 2, 'routes and NAT');
  await history.dialog.getByRole('button', { name: 'Close' }).click();
  await history.dialog.waitFor({ state: 'hidden' });
  await visible(page.getByRole('button', { name: 'Edit route 10.20.0.0/16' }));
  assert.equal(await page.getByRole('button', { name: 'Edit route 10.30.0.0/16' }).count(), 0);
});

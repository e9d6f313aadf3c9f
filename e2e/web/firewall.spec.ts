/* global document -- used in code that runs in the page */
// Firewall screen (issue 6, point 4): rulesets with the drag-sortable rule table and the
// spec's notices, assignment to a device, the exact script preview, L3 routes, and RTL.
import type { Locator, Page } from '@playwright/test';
import { ADMIN } from '../lib/env.ts';
import {
  apiCall,
  assert,
  choose,
  dragRow,
  recordNotices,
  openSignedIn,
  signIn,
  visible,
  waitForNotice,
} from '../lib/ui.ts';
import { expect, test } from '../fixtures.ts';
import { snap } from '../lib/ids.ts';

async function addRule(
  page: Page,
  { action, ports, comment }: { action?: string; ports: string; comment: string },
) {
  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'New rule', exact: true });
  if (action !== undefined) await choose(page, 'Action', action);
  await dialog.getByLabel('Destination ports').fill(ports);
  await dialog.getByLabel('Comment').fill(comment);
  await dialog.getByRole('button', { name: 'Add rule' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Saves that reach devices are reviewed first: Save and send. */
async function confirmReview(page: Page, devices: number) {
  const review = page.getByRole('dialog', { name: 'Review changes' });
  await review.getByRole('button', { name: `Save and send to ${devices}` }).click();
}

const comments = (editor: Locator) => editor.getByTestId('rule-comment').allTextContents();

test('firewall: ruleset of 3 rules with the spec notices, reordered by drag, order kept', async ({
  page,
  shot,
}) => {
  const rulesetName = `Edge ${Date.now().toString(36)}`;
  await openSignedIn(page, '/firewall');
  await visible(page.getByRole('table', { name: 'Firewall rulesets' }));
  const notices = await recordNotices(page);
  await page.getByRole('button', { name: 'New ruleset' }).click();
  const editor = page.getByRole('dialog', { name: 'New ruleset' });
  await editor.getByLabel('Name', { exact: true }).fill(rulesetName);
  await addRule(page, { ports: '22', comment: 'allow ssh' });
  await addRule(page, { ports: '80,443', comment: 'allow web' });
  await addRule(page, { action: 'Drop', ports: '23', comment: 'drop telnet' });
  // A new ruleset starts with the two rules that keep a device reachable.
  const defaults = ['loopback', 'replies, the agent connection to the server included'];
  assert.deepEqual(await comments(editor), [...defaults, 'allow ssh', 'allow web', 'drop telnet']);
  await editor.getByRole('button', { name: 'Save' }).click();
  await waitForNotice(page, 'Ruleset successfully created');
  const texts = (await notices.list()).map((n) => n.text);
  assert.ok(texts.indexOf('Create ruleset') >= 0, texts.join(' | '));
  assert.ok(texts.indexOf('Create ruleset') < texts.indexOf('Ruleset successfully created'));
  const listed = page.getByRole('row', { name: new RegExp(rulesetName) });
  await visible(listed);

  await listed.getByRole('button', { name: `Edit ${rulesetName}` }).click();
  const edit = page.getByRole('dialog', { name: `Ruleset ${rulesetName}` });
  const rules = edit.getByRole('table', { name: 'Rules in order' });
  await visible(rules);
  await dragRow(page, rules, 4, 2);
  const reordered = [...defaults, 'drop telnet', 'allow ssh', 'allow web'];
  // The drop settles asynchronously: wait for the order, then state it.
  await expect.poll(() => comments(edit)).toEqual(reordered);
  assert.deepEqual(await comments(edit), reordered);
  await edit.getByRole('switch', { name: 'Rule 5 enabled' }).uncheck();
  await shot('firewall-ruleset-editor');
  await edit.getByRole('button', { name: 'Save' }).click();
  await waitForNotice(page, 'Ruleset successfully updated');
  await edit.waitFor({ state: 'detached' });

  await page.reload();
  await page
    .getByRole('row', { name: new RegExp(rulesetName) })
    .getByRole('button', { name: `Edit ${rulesetName}` })
    .click();
  const again = page.getByRole('dialog', { name: `Ruleset ${rulesetName}` });
  await visible(again.getByRole('table', { name: 'Rules in order' }));
  assert.deepEqual(await comments(again), [...defaults, 'drop telnet', 'allow ssh', 'allow web']);
  assert.equal(await again.getByRole('switch', { name: 'Rule 5 enabled' }).isChecked(), false);
  await again.getByRole('button', { name: 'Cancel' }).click();
});

test('firewall: assign a ruleset to a device; preview; route in L3 mode; flush; delete', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const device = await apiCall(baseUrl, token, 'POST', 'devices/', {
    name: `fw-${Date.now().toString(36)}`,
    password: 'firewall-device-pw-1',
  });
  const rulesetName = `Assigned ${Date.now().toString(36)}`;
  await apiCall(baseUrl, token, 'POST', 'fwruleset/', {
    name: rulesetName,
    rules: [
      { chain: 'input', action: 'accept', in_interface: 'lo' },
      { chain: 'input', action: 'accept', states: ['established', 'related'] },
      { chain: 'input', action: 'drop', protocol: 'tcp', destination_ports: '23' },
      { chain: 'input', action: 'accept', protocol: 'tcp', destination_ports: '22' },
    ],
  });
  await openSignedIn(page, '/firewall?tab=assignments');

  const row = page.getByRole('row', { name: new RegExp(device.name) });
  await choose(page, `Firewall of ${device.name}`, rulesetName);
  // An assignment is reviewed first (change-review.spec.ts looks closer).
  await confirmReview(page, 1);
  await waitForNotice(page, 'Assignment saved');
  await row.getByRole('button', { name: `Preview the script of ${device.name}` }).click();
  const preview = page.getByRole('dialog', { name: `What ${device.name} receives` });
  await visible(preview.getByTestId('nftables-script'));
  const script = (await preview.getByTestId('nftables-script').textContent()) ?? '';
  assert.match(script, /table inet palisade/);
  assert.match(script, /tcp dport 23/);
  await snap(page, shot, 'firewall-preview');
  await preview.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('tab', { name: 'Routes and NAT' }).click();
  await page.getByRole('switch', { name: /L3 mode/ }).check();
  await page.getByRole('button', { name: 'Add route' }).click();
  const route = page.getByRole('dialog', { name: 'New route' });
  await route.getByLabel('Destination').fill('10.20.0.0/16');
  await route.getByLabel('Gateway').fill('192.168.1.1');
  await route.getByLabel('Metric').fill('100');
  await route.getByRole('button', { name: 'Add route' }).click();
  await page.getByRole('button', { name: 'Add source NAT' }).click();
  await page.getByLabel('Out interface').fill('eth0');
  await page.getByRole('button', { name: 'Add port forward' }).click();
  await page.getByLabel('To address').last().fill('10.20.0.5');
  await page.getByLabel('To port').fill('80');
  await page.getByRole('button', { name: 'Save routes and NAT' }).click();
  await confirmReview(page, 1);
  await waitForNotice(page, 'Routes and NAT saved');
  await page.getByRole('button', { name: 'Edit route 10.20.0.0/16' }).click();
  const update = page.getByRole('dialog', { name: 'Edit route' });
  await update.getByLabel('Metric').fill('50');
  await update.getByRole('button', { name: 'Update route' }).click();
  await page.getByRole('button', { name: 'Save routes and NAT' }).click();
  await confirmReview(page, 1);
  await waitForNotice(page, 'Routes and NAT saved');
  await shot('firewall-network');
  await page.getByRole('button', { name: 'Preview the script' }).click();
  const commands = page.getByTestId('route-commands');
  await visible(commands);
  assert.match(
    (await commands.textContent()) ?? '',
    /10\.20\.0\.0\/16 via 192\.168\.1\.1.*metric 50/,
  );
  const nat = (await page.getByTestId('nftables-script').textContent()) ?? '';
  assert.match(nat, /oifname "eth0".*masquerade/);
  assert.match(nat, /tcp dport 8080 dnat ip to 10\.20\.0\.5:80/);
  await snap(page, shot, 'firewall-routes');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  await page.goto('/devices');
  const deviceRow = page.getByRole('row', { name: new RegExp(device.name) });
  await visible(deviceRow);
  assert.match((await deviceRow.textContent()) ?? '', new RegExp(rulesetName));
  await deviceRow.getByRole('button', { name: `Flush ${device.name}` }).click();
  await waitForNotice(page, 'Flush requested');
  await deviceRow.getByRole('button', { name: `Delete ${device.name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await waitForNotice(page, 'Device deleted');
  await deviceRow.waitFor({ state: 'detached' });

  await page.goto('/firewall');
  const unused = page.getByRole('row', { name: new RegExp(rulesetName) });
  await unused.getByRole('button', { name: `Delete ${rulesetName}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await waitForNotice(page, 'Ruleset deleted');
  await unused.waitFor({ state: 'detached' });
});

test('firewall: a refused rule is named at its row; a used ruleset cannot be deleted', async ({
  page,
  api,
  baseUrl,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const ruleset = await apiCall(baseUrl, token, 'POST', 'fwruleset/', {
    name: `Used ${Date.now().toString(36)}`,
    rules: [{ chain: 'input', action: 'accept', protocol: 'tcp', destination_ports: '22' }],
  });
  await apiCall(baseUrl, token, 'POST', 'devices/', {
    name: `user-${Date.now().toString(36)}`,
    password: 'firewall-device-pw-2',
    firewall_id: ruleset.id,
  });
  await openSignedIn(page, '/firewall');
  const row = page.getByRole('row', { name: new RegExp(ruleset.name) });
  await row.getByRole('button', { name: `Delete ${ruleset.name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await waitForNotice(page, 'Devices use this ruleset');

  await row.getByRole('button', { name: `Edit ${ruleset.name}` }).click();
  const edit = page.getByRole('dialog', { name: `Ruleset ${ruleset.name}` });
  await addRule(page, { ports: '99999', comment: 'bad port' });
  await edit.getByRole('button', { name: 'Save' }).click();
  await waitForNotice(page, 'rule 2');
  const rules = edit.getByRole('table', { name: 'Rules in order' });
  const problem = rules.getByRole('row', { name: /bad port/ }).getByTestId('rule-problem');
  await visible(problem);
  assert.match((await problem.textContent()) ?? '', /65535/);
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await page
    .getByRole('dialog', { name: 'Discard changes?' })
    .getByRole('button', { name: 'Discard' })
    .click();
  await edit.waitFor({ state: 'detached' });
  assert.equal(await page.getByText('Update ruleset', { exact: true }).count(), 0);
});

test('firewall: Arabic, right to left', async ({ page, shot }) => {
  await signIn(page);
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitem', { name: 'العربية' }).click();
  await page.waitForFunction(() => document.documentElement.dir === 'rtl');
  await visible(page.getByRole('heading', { level: 1, name: 'الأجهزة' }));
  await page.goto('/firewall');
  await visible(page.getByRole('heading', { level: 1, name: 'جدار الحماية' }));
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
  await visible(page.getByRole('tab', { name: 'مجموعات القواعد' }));
  await shot('firewall-ar');
  await page.getByRole('button', { name: 'مجموعة قواعد جديدة' }).click();
  await page.getByRole('button', { name: 'إضافة قاعدة' }).click();
  await snap(page, shot, 'firewall-rule-ar');
  await page.goto('/devices');
  await visible(page.getByRole('heading', { level: 1, name: 'الأجهزة' }));
  await shot('devices-list-ar');
});

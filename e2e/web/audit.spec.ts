/* global document -- used in code that runs in the page */
// The audit log (issue 18, item 1): a change made in the console is in the log with its
// before/after, the log filters by what the URL says, an editor's History opens its object's
// own records, and the filtered log downloads as CSV and JSON.
import type { Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { ADMIN } from '../lib/env.ts';
import { apiCall, assert, openSignedIn, visible, waitForNotice } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

/** Waits until the log shows exactly `count` rows (it polls; no fixed wait). */
const rowsAre = (page: Page, count: number) =>
  page.waitForFunction(
    (n: number) => document.querySelectorAll('[data-testid="audit-row"]').length === n,
    count,
    { timeout: 10_000 },
  );

test('audit: a change shows with its before/after, filters, history and export', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const name = `Audited ${Date.now().toString(36)}`;
  const profile = await apiCall(baseUrl, token, 'POST', 'deviceconfigurationprofiles/', {
    name,
    variables: { HOME_NET: '[10.0.0.0/8]' },
  });

  // The change, made in the console.
  await openSignedIn(page, '/firewall?tab=profiles');
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Description').fill('branch office, "east"');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await waitForNotice(page, 'Profile saved');
  await dialog.waitFor({ state: 'detached' });

  // History from the editor: the log filtered to this profile, newest first.
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  await page.getByRole('dialog').getByTestId('history-link').click();
  await page.waitForURL(/\/audit\?/);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('object_type'), 'profile');
  assert.equal(url.searchParams.get('object_id'), String(profile.id));
  const rows = page.getByTestId('audit-row');
  await visible(rows.first());
  assert.equal(await rows.count(), 2);
  assert.match((await rows.nth(0).textContent()) ?? '', /update/);
  assert.match((await rows.nth(0).textContent()) ?? '', new RegExp(name));
  assert.match((await rows.nth(1).textContent()) ?? '', /create/);

  // The row opens to what changed: the old description removed, the new one added.
  await rows
    .nth(0)
    .getByRole('button', { name: /Show the change of record/ })
    .click();
  const change = page.getByTestId('audit-change');
  await visible(change);
  assert.match((await change.textContent()) ?? '', /description/);
  assert.equal(await change.locator('ins').first().textContent(), 'branch office, "east"');
  await shot('audit-change');

  // Filter by action in the form: the URL keeps it, only the creation is left.
  await page.getByLabel('Action').click();
  await page.getByRole('option', { name: 'create', exact: true }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL(/action=create/);
  // The rows shown before the filter may still stand while the filtered page loads.
  await rowsAre(page, 1);
  assert.match((await rows.first().textContent()) ?? '', /create/);
  // A reload keeps the filters.
  await page.reload();
  await rowsAre(page, 1);

  // Export what is shown: CSV and JSON with the same filters.
  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csvFile = await csvDownload;
  assert.equal(csvFile.suggestedFilename(), 'audit.csv');
  const csv = (await readFile(await csvFile.path(), 'utf8')).trim().split('\r\n');
  assert.equal(csv.length, 2);
  assert.match(csv[0] ?? '', /^id,at,actor_kind/);
  assert.match(csv[1] ?? '', new RegExp(`,create,profile,${profile.id},${name},`));

  const jsonDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const records = JSON.parse(await readFile(await (await jsonDownload).path(), 'utf8'));
  assert.deepEqual(
    records.map((r: { action: string; object_id: number }) => [r.action, r.object_id]),
    [['create', String(profile.id)]],
  );
  await shot('audit-filtered');
});

test('audit: the log is for Administrators; others see no History', async ({
  page,
  api,
  baseUrl,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const email = `operator-${Date.now().toString(36)}@example.com`;
  await api.createUser(token, { email, password: 'Operator#2026', role: 'Operator' });
  const name = `Not yours ${Date.now().toString(36)}`;
  await apiCall(baseUrl, token, 'POST', 'deviceconfigurationprofiles/', { name });
  await openSignedIn(page, '/firewall?tab=profiles', { email, password: 'Operator#2026' });
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  await visible(page.getByRole('dialog').getByRole('button', { name: 'Save' }));
  assert.equal(await page.getByTestId('history-link').count(), 0);
  await page.goto('/audit');
  await visible(page.getByTestId('admin-refused'));
});

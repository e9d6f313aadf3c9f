// Changes with an end date (issue 18, item 7): a firewall rule, a rule override and a
// suppression given an expiry and a reason in the console show an "Expires" chip in their
// editor, and the Policies tab lists them among what expires in the next 7 days.
import { ADMIN } from '../lib/env.ts';
import { assert, openSignedIn, visible, waitForNotice } from '../lib/ui.ts';
import { arrangePolicy } from '../lib/versions.ts';
import { test } from '../fixtures.ts';

const pad = (n: number) => String(n).padStart(2, '0');
/** The datetime-local text of a moment, in the browser's (this machine's) time zone. */
const localInput = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}`;

const RULES = [
  'alert tcp any any -> $HOME_NET 22 (msg:"E2E expiry ssh"; sid:7820001; rev:1;)',
  'alert tcp any any -> $HOME_NET 23 (msg:"E2E expiry telnet"; sid:7820002; rev:1;)',
  'alert udp any any -> any 53 (msg:"E2E expiry dns"; sid:7820003; rev:1;)',
  '',
].join('\n');

test('expiry: a firewall rule with an end date is badged and listed as expiring', async ({
  page,
  shot,
}) => {
  const rulesetName = `Partner ${Date.now().toString(36)}`;
  await openSignedIn(page, '/firewall');
  await visible(page.getByRole('table', { name: 'Firewall rulesets' }));
  await page.getByRole('button', { name: 'New ruleset' }).click();
  const editor = page.getByRole('dialog', { name: 'New ruleset' });
  await editor.getByLabel('Name', { exact: true }).fill(rulesetName);

  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'New rule', exact: true });
  await dialog.getByLabel('Destination ports').fill('2323');
  await dialog.getByLabel('Comment').fill('partner scan');
  const expires = new Date(Date.now() + 3 * 86_400_000);
  await dialog.getByLabel('Expires', { exact: true }).fill(localInput(expires));
  await dialog.getByLabel('Reason').fill('INC-7 until the partner fixes it');
  await dialog.getByRole('button', { name: 'Add rule' }).click();
  await dialog.waitFor({ state: 'detached' });

  const chips = editor.getByTestId('expires-chip');
  await visible(chips);
  assert.equal(await chips.count(), 1);
  assert.match(await chips.first().innerText(), /^Expires /);
  await editor.getByRole('button', { name: 'Save' }).click();
  await waitForNotice(page, 'Ruleset successfully created');

  await page.goto('/policies');
  const list = page.getByTestId('expiring-list');
  await visible(list);
  await visible(page.getByRole('heading', { name: 'Expiring in the next 7 days' }));
  const item = list.getByTestId('expiring-item').filter({ hasText: rulesetName });
  await visible(item);
  const text = await item.innerText();
  assert.match(text, /Firewall rule/);
  assert.match(text, /input accept tcp 2323 \(partner scan\)/);
  assert.match(text, /INC-7 until the partner fixes it/);
  await shot('expiry-list');
});

test('expiry: a rule override and a suppression with end dates are listed as expiring', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const name = `Expiring ${Date.now().toString(36)}`;
  await arrangePolicy(baseUrl, token, name, RULES);
  await openSignedIn(page, '/policies');
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const editor = page.getByRole('dialog', { name: `Edit ${name}` });

  // An override that disables a noisy rule for two days.
  await editor.getByRole('tab', { name: /^Overrides/ }).click();
  await editor.getByRole('checkbox', { name: 'Select rule 7820002' }).check();
  await editor.getByRole('button', { name: 'Disable selected' }).click();
  await visible(editor.getByTestId('override-row'));
  const overrideEnds = new Date(Date.now() + 2 * 86_400_000);
  await editor.getByLabel('Expiry of 7820002').fill(localInput(overrideEnds));
  await editor.getByLabel('Reason for 7820002').fill('CHG-12 noisy until tuned');

  // A suppression for five days, through its own dialog.
  await editor.getByRole('tab', { name: /^Thresholds/ }).click();
  await editor.getByRole('button', { name: 'Add threshold' }).click();
  const threshold = page.getByRole('dialog', { name: 'Threshold', exact: true });
  await threshold.getByLabel('sid', { exact: true }).fill('7820003');
  const suppressionEnds = new Date(Date.now() + 5 * 86_400_000);
  await threshold.getByLabel('Expires', { exact: true }).fill(localInput(suppressionEnds));
  await threshold.getByLabel('Reason').fill('INC-9 scanner on the DNS server');
  await threshold.getByRole('button', { name: 'Save' }).click();
  await threshold.waitFor({ state: 'detached' });
  const thresholds = editor.getByRole('table', { name: 'Thresholds and suppressions' });
  await visible(thresholds.getByText('suppress gen_id 1, sig_id 7820003'));
  assert.match(await thresholds.getByTestId('expires-chip').innerText(), /^Expires /);

  await editor.getByRole('button', { name: 'Save' }).click();
  await waitForNotice(page, 'Policy successfully updated');
  await editor.waitFor({ state: 'detached' });

  await page.goto('/policies');
  await visible(page.getByRole('heading', { name: 'Expiring in the next 7 days' }));
  const items = page.getByTestId('expiring-list').getByRole('listitem').filter({ hasText: name });
  const override = items.filter({ hasText: 'Override' });
  await visible(override);
  const overrideText = await override.innerText();
  assert.match(overrideText, /1:7820002 disable/);
  assert.match(overrideText, /CHG-12 noisy until tuned/);
  const suppression = items.filter({ hasText: 'Threshold' });
  await visible(suppression);
  const suppressionText = await suppression.innerText();
  assert.match(suppressionText, /suppress 1:7820003/);
  assert.match(suppressionText, /INC-9 scanner on the DNS server/);
  assert.equal(await items.count(), 2);
  await shot('expiry-policy-list');
});

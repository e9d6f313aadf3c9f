/* global document -- used in code that runs in the page */
// Nothing typed is lost (issue 18, item 5): each editor, once changed, asks "Discard changes?"
// before it closes (Cancel, Esc, backdrop), before another tab of its screen, another page of
// the console, Back or a reload, for new objects and existing ones alike; "Keep editing" keeps
// the edit, "Discard" lets it go.
import type { Page } from '@playwright/test';
import { ADMIN } from '../lib/env.ts';
import { apiCall, assert, dragRow, openSignedIn, signIn, visible, waitForPath } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

const stamp = () => Date.now().toString(36);
const question = (page: Page) => page.getByRole('dialog', { name: 'Discard changes?' });

async function keepEditing(page: Page) {
  await question(page).getByRole('button', { name: 'Keep editing' }).click();
  await question(page).waitFor({ state: 'detached' });
}

async function discard(page: Page) {
  await question(page).getByRole('button', { name: 'Discard' }).click();
  await question(page).waitFor({ state: 'detached' });
}

/** A reload of a changed page is held by the browser's own question; dismissing it stays. */
async function reloadIsHeld(page: Page) {
  const asked = page.waitForEvent('dialog').then(async (dialog) => {
    const type = dialog.type();
    await dialog.dismiss();
    return type;
  });
  const reload = page.reload({ timeout: 3000 }).catch(() => 'stayed');
  assert.equal(await asked, 'beforeunload');
  await reload;
}

/**
 * A dialog editor: untouched, Cancel closes it; after `edit`, Cancel asks and keeping keeps
 * `check`'s value, Esc asks again, and Discard closes it.
 */
/** What a dialog-asks check opens and fills. */
interface Asked {
  open: () => Promise<unknown>;
  name: string;
  field: string;
  value: string;
}

async function dialogAsks(page: Page, { open, name, field, value }: Asked) {
  await open();
  let editor = page.getByRole('dialog', { name, exact: true });
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await editor.waitFor({ state: 'detached' });
  assert.equal(await question(page).count(), 0);

  await open();
  editor = page.getByRole('dialog', { name, exact: true });
  await editor.getByLabel(field, { exact: true }).fill(value);
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await visible(question(page));
  await keepEditing(page);
  assert.equal(await editor.getByLabel(field, { exact: true }).inputValue(), value);
  await page.keyboard.press('Escape');
  await visible(question(page));
  await discard(page);
  await editor.waitFor({ state: 'detached' });
}

/**
 * The editor of an object that exists, reached inside the console: after `field` changes,
 * Cancel, Esc and the browser's Back each ask "Discard changes?" and Keep editing keeps the
 * edit (and the page); Discard closes it, and opened again it holds what was saved.
 */
async function existingAsks(page: Page, { open, name, field, value }: Asked) {
  await open();
  const editor = page.getByRole('dialog', { name, exact: true });
  const input = editor.getByLabel(field, { exact: true });
  await visible(input);
  const saved = await input.inputValue();
  await input.fill(value);
  const address = page.url();

  await editor.getByRole('button', { name: 'Cancel' }).click();
  await visible(question(page));
  await keepEditing(page);
  assert.equal(await input.inputValue(), value);

  await page.keyboard.press('Escape');
  await visible(question(page));
  await keepEditing(page);
  assert.equal(await input.inputValue(), value);

  await page.goBack();
  await visible(question(page));
  await keepEditing(page);
  assert.equal(page.url(), address);
  assert.equal(await input.inputValue(), value);

  await editor.getByRole('button', { name: 'Cancel' }).click();
  await discard(page);
  await editor.waitFor({ state: 'detached' });
  await open();
  await visible(input);
  assert.equal(await input.inputValue(), saved);
  // Untouched, it closes without asking.
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await editor.waitFor({ state: 'detached' });
  assert.equal(await question(page).count(), 0);
}

test('unsaved: the ruleset editor asks after a drag reorder; Discard keeps the saved order', async ({
  page,
  api,
  baseUrl,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const name = `Order ${stamp()}`;
  await apiCall(baseUrl, token, 'POST', 'fwruleset/', {
    name,
    rules: ['first', 'second', 'third'].map((comment, i) => ({
      chain: 'input',
      action: 'accept',
      protocol: 'tcp',
      destination_ports: String(22 + i),
      comment,
    })),
  });
  await openSignedIn(page, '/firewall');
  const open = () =>
    page
      .getByRole('row', { name: new RegExp(name) })
      .getByRole('button', { name: `Edit ${name}` })
      .click();
  await open();
  const editor = page.getByRole('dialog', { name: `Ruleset ${name}` });
  const table = editor.getByRole('table', { name: 'Rules in order' });
  await visible(table);
  const comments = () => editor.getByTestId('rule-comment').allTextContents();
  await dragRow(page, table, 2, 0);
  await page.waitForFunction(
    () => document.querySelector('[data-testid="rule-comment"]')?.textContent === 'third',
  );
  assert.deepEqual(await comments(), ['third', 'first', 'second']);

  await editor.getByRole('button', { name: 'Cancel' }).click();
  await visible(question(page).getByText(/rule order included/));
  await keepEditing(page);
  assert.deepEqual(await comments(), ['third', 'first', 'second']);

  // The backdrop of a full-screen dialog cannot be clicked; Esc is its other way out.
  await page.keyboard.press('Escape');
  await visible(question(page));
  await discard(page);
  await editor.waitFor({ state: 'detached' });
  await open();
  await visible(table);
  assert.deepEqual(await comments(), ['first', 'second', 'third']);

  // Dragged back to where it was, the ruleset is as loaded: Cancel closes at once.
  const firstIs = (text: string) =>
    page.waitForFunction(
      (expected) =>
        document.querySelector('[data-testid="rule-comment"]')?.textContent === expected,
      text,
    );
  await dragRow(page, table, 0, 2);
  await firstIs('second');
  await dragRow(page, table, 2, 0);
  await firstIs('first');
  assert.deepEqual(await comments(), ['first', 'second', 'third']);

  // A rule half typed in its own dialog is not dropped by Esc either.
  await editor.getByRole('button', { name: 'Add rule' }).click();
  const rule = page.getByRole('dialog', { name: 'New rule', exact: true });
  await rule.getByLabel('Comment').fill('half typed');
  await page.keyboard.press('Escape');
  await keepEditing(page);
  assert.equal(await rule.getByLabel('Comment').inputValue(), 'half typed');
  await page.keyboard.press('Escape');
  await discard(page);
  await rule.waitFor({ state: 'detached' });

  await editor.getByRole('button', { name: 'Cancel' }).click();
  await editor.waitFor({ state: 'detached' });
});

test('unsaved: routes and NAT hold another tab, another page and a reload', async ({
  page,
  api,
  baseUrl,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const device = await apiCall(baseUrl, token, 'POST', 'devices/', {
    name: `net-${stamp()}`,
    password: 'unsaved-device-pw-1',
  });
  await openSignedIn(page, `/firewall?tab=network&device=${device.id}`);
  await page.getByRole('button', { name: 'Add route' }).click();
  const route = page.getByRole('dialog', { name: 'New route' });
  await route.getByLabel('Destination').fill('10.20.0.0/16');
  // A half-typed route asks before its own dialog drops it.
  await route.getByRole('button', { name: 'Cancel' }).click();
  await keepEditing(page);
  await route.getByRole('button', { name: 'Add route' }).click();
  await route.waitFor({ state: 'detached' });
  const added = page.getByRole('button', { name: 'Edit route 10.20.0.0/16' });
  await visible(added);

  await page.getByRole('tab', { name: 'Rulesets' }).click();
  await visible(question(page).getByText(/routes, NAT and L3 mode/));
  await keepEditing(page);
  assert.match(page.url(), /tab=network/);
  await visible(added);

  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Devices', exact: true })
    .click();
  await visible(question(page));
  await keepEditing(page);
  await visible(added);

  await reloadIsHeld(page);
  await visible(added);

  await page.getByRole('tab', { name: 'Rulesets' }).click();
  await discard(page);
  await visible(page.getByRole('table', { name: 'Firewall rulesets' }));
  await page.getByRole('tab', { name: 'Routes and NAT' }).click();
  await visible(page.getByText('No routes.'));
});

test('unsaved: policy, profile and device editors ask before typed changes go', async ({
  page,
}) => {
  await openSignedIn(page, '/policies');
  await dialogAsks(page, {
    open: () => page.getByRole('button', { name: 'New policy' }).click(),
    name: 'New policy',
    field: 'Name',
    value: `Perimeter ${stamp()}`,
  });
  await page.goto('/firewall?tab=profiles');
  await dialogAsks(page, {
    open: () => page.getByRole('button', { name: 'New profile' }).click(),
    name: 'New profile',
    field: 'Name',
    value: `Branch ${stamp()}`,
  });
  await page.goto('/devices');
  await dialogAsks(page, {
    open: () => page.getByRole('button', { name: 'New device' }).click(),
    name: 'New device',
    field: 'Name',
    value: `sensor-${stamp()}`,
  });
});

test('unsaved: the user form holds leaving the page and signing out', async ({ page }) => {
  await signIn(page);
  // Reached inside the console, so that Back is the console's own navigation.
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('link', { name: 'Users', exact: true }).click();
  await page.getByRole('link', { name: 'Create user' }).click();
  await waitForPath(page, '/admin/users/create');
  const email = page.getByLabel('E-mail');
  await email.fill(`new-${stamp()}@example.com`);
  await nav.getByRole('link', { name: 'Devices', exact: true }).click();
  await visible(question(page));
  await keepEditing(page);
  await waitForPath(page, '/admin/users/create');

  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await visible(question(page));
  await keepEditing(page);
  await waitForPath(page, '/admin/users/create');

  await page.goBack();
  await visible(question(page));
  await keepEditing(page);
  await waitForPath(page, '/admin/users/create');
  assert.match(await email.inputValue(), /^new-/);

  await nav.getByRole('link', { name: 'Devices', exact: true }).click();
  await discard(page);
  await waitForPath(page, '/devices');

  // One's own account too.
  await nav.getByRole('link', { name: 'Account', exact: true }).click();
  await page.getByLabel('First name').fill(`Renamed ${stamp()}`);
  await nav.getByRole('link', { name: 'Devices', exact: true }).click();
  await discard(page);
  await waitForPath(page, '/devices');
});

test('unsaved: editing an existing policy, profile and device asks before edits go', async ({
  page,
  api,
  baseUrl,
}) => {
  test.slow(); // a long flow: three times the suite's time-out
  const token = await api.token(ADMIN.email, ADMIN.password);
  const policy = await apiCall(baseUrl, token, 'POST', 'policies/', {
    name: `Existing ${stamp()}`,
  });
  const profile = await apiCall(baseUrl, token, 'POST', 'deviceconfigurationprofiles/', {
    name: `Existing ${stamp()}`,
    description: 'as saved',
    variables: { HOME_NET: '[10.0.0.0/8]' },
  });
  const device = await apiCall(baseUrl, token, 'POST', 'devices/', {
    name: `existing-${stamp()}`,
    password: 'unsaved-device-pw-2',
    city: 'Lyon',
  });
  await signIn(page);
  // Each screen is reached through the console, so that Back is the console's own.
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const editButton = (name: string) =>
    page.getByRole('row', { name: new RegExp(name) }).getByRole('button', { name: `Edit ${name}` });

  await nav.getByRole('link', { name: 'Policies', exact: true }).click();
  await waitForPath(page, '/policies');
  await existingAsks(page, {
    open: () => editButton(policy.name).click(),
    name: `Edit ${policy.name}`,
    field: 'Name',
    value: `${policy.name} renamed`,
  });

  await nav.getByRole('link', { name: 'Firewall', exact: true }).click();
  await waitForPath(page, '/firewall');
  await page.getByRole('tab', { name: 'Profiles' }).click();
  await existingAsks(page, {
    open: () => editButton(profile.name).click(),
    name: `Edit ${profile.name}`,
    field: 'Description',
    value: 'typed, not saved',
  });

  await nav.getByRole('link', { name: 'Devices', exact: true }).click();
  await waitForPath(page, '/devices');
  await existingAsks(page, {
    open: () => editButton(device.name).click(),
    name: `Edit ${device.name}`,
    field: 'City',
    value: 'Marseille',
  });
});

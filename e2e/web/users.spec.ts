// Admin user screens, and their refusal to an Operator (spec §6).
import { ADMIN } from '../lib/env.ts';
import {
  assert,
  openSignedIn,
  signIn,
  uniqueEmail,
  visible,
  waitForNotice,
  waitForPath,
} from '../lib/ui.ts';
import { test } from '../fixtures.ts';

test('admin: create, edit and delete a user; roles come from /openapi.json', async ({
  page,
  shot,
}) => {
  const email = uniqueEmail('operator');
  await openSignedIn(page, '/admin/users/all');
  await page.getByRole('link', { name: 'Create user' }).click();
  await waitForPath(page, '/admin/users/create');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('First name').fill('Oscar');
  await page.getByLabel('Last name').fill('Operator');
  await page.getByLabel('Password', { exact: true }).fill('Operator1!');
  await page.getByLabel('Role').click();
  await page.getByRole('option', { name: 'Administrator' }).waitFor();
  const roles = await page.getByRole('option').allTextContents();
  assert.deepEqual(roles, ['Administrator', 'Operator', 'Viewer']);
  await page.getByRole('option', { name: 'Operator' }).click();
  await shot('user-create');
  await page.getByRole('button', { name: 'Create user' }).click();
  await waitForNotice(page, 'User created');
  await waitForPath(page, '/admin/users/all');
  const row = page.getByRole('row', { name: new RegExp(email) });
  await visible(row);
  assert.match((await row.textContent()) ?? '', /Operator/);

  await row.getByRole('link', { name: `Edit ${email}` }).click();
  await page.waitForURL(/\/admin\/users\/edit\/\d+$/);
  await visible(page.getByRole('heading', { level: 1, name: 'Edit user' }));
  await visible(page.getByLabel('First name'));
  assert.equal(await page.getByLabel('First name').inputValue(), 'Oscar');
  await shot('user-edit');
  await page.getByLabel('First name').fill('Olga');
  await page.getByRole('button', { name: 'Save' }).click();
  await waitForNotice(page, 'User updated');
  await waitForPath(page, '/admin/users/all');
  await visible(page.getByRole('row', { name: new RegExp(`${email}.*Olga|Olga.*${email}`) }));

  const doomed = uniqueEmail('doomed');
  await page.getByRole('link', { name: 'Create user' }).click();
  await page.getByLabel('E-mail').fill(doomed);
  await page.getByLabel('Password', { exact: true }).fill('Doomed12!');
  await page.getByRole('button', { name: 'Create user' }).click();
  await waitForNotice(page, 'User created');
  await waitForPath(page, '/admin/users/all');
  await page.getByRole('button', { name: `Delete ${doomed}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await waitForNotice(page, 'User deleted');
  await page.getByRole('row', { name: new RegExp(doomed) }).waitFor({ state: 'detached' });
  await shot('users');
});

test('admin: a taken e-mail on create is reported', async ({ page }) => {
  await openSignedIn(page, '/admin/users/create');
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill('Another1!');
  await page.getByRole('button', { name: 'Create user' }).click();
  await waitForNotice(page, 'This e-mail is already in use');
  await waitForPath(page, '/admin/users/create');
});

test('operator: user administration is hidden and refused', async ({ page, api, shot }) => {
  const admin = await api.token(ADMIN.email, ADMIN.password);
  const email = uniqueEmail('op');
  await api.createUser(admin, { email, password: 'Operator1!', role: 'Operator' });
  const calls: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/v1\/users\/?(\?|$)/.test(request.url())) calls.push(request.url());
  });
  await signIn(page, { email, password: 'Operator1!' });
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await visible(nav.getByRole('link', { name: 'Devices' }));
  assert.equal(await nav.getByRole('link', { name: 'Users' }).count(), 0);
  for (const path of ['/admin', '/admin/users/all', '/admin/users/create', '/admin/users/edit/1']) {
    await page.goto(path);
    await visible(page.getByTestId('admin-refused'));
    await visible(page.getByText('Only administrators manage users.'));
  }
  await shot('admin-refused-operator');
  assert.deepEqual(calls, [], 'no user-list call is made for an Operator');
});

// Sign-in, the session (spec §4) and the §8 error catalogue from real server statuses.
import type { Page } from '@playwright/test';
import { ADMIN } from '../lib/env.ts';
import { assert, signIn, uniqueEmail, visible, waitForNotice, waitForPath } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

const loginError = (page: Page) => page.getByTestId('login-error');

test('sign-in form: spec validation messages', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Login' }).click();
  assert.equal(await page.getByText('Required', { exact: true }).count(), 2);
  await page.getByLabel('E-mail').fill('someone@example.com');
  await page.getByLabel('Password', { exact: true }).fill('abc');
  await visible(page.getByText('Password must have 5+ characters'));
});

test('sign-in: wrong password shows Incorrect login or password', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill('Wrong#2026');
  await page.getByRole('button', { name: 'Login' }).click();
  await visible(loginError(page));
  assert.equal(await loginError(page).textContent(), 'Incorrect login or password');
  assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
});

test('sign-in: no answer from the server shows Network error', async ({ page }) => {
  await page.goto('/login');
  await page.route('**/api/v1/login/access-token', (route) => route.abort('connectionrefused'));
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await visible(loginError(page));
  assert.equal(await loginError(page).textContent(), 'Network error');
});

test('sign-in: success stores the token, says Logged in and checks component versions', async ({
  page,
}) => {
  await signIn(page);
  await waitForNotice(page, 'Logged in');
  const token = await page.evaluate(() => localStorage.getItem('token'));
  assert.ok(token && token.length > 20, 'token in local storage under "token"');
  await page.waitForFunction(() => localStorage.getItem('component_versions') !== null);
  const cached = JSON.parse(
    (await page.evaluate(() => localStorage.getItem('component_versions'))) ?? 'null',
  );
  assert.equal(typeof cached.packages, 'object');
});

test('session: a reload keeps the user signed in; a bad stored token is dropped', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/account');
  await visible(page.getByRole('heading', { level: 1, name: 'Account' }));
  await page.reload();
  await visible(page.getByRole('heading', { level: 1, name: 'Account' }));
  await page.evaluate(() => localStorage.setItem('token', 'not-a-token'));
  await page.reload();
  await waitForPath(page, '/login');
  assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
});

test('session: a 401 from any call logs out to the login screen', async ({ page }) => {
  await signIn(page);
  // The server no longer accepts the token the console holds: the next call gets a 401.
  await page.route('**/api/v1/users/**', (route) =>
    route.continue({
      headers: { ...route.request().headers(), authorization: 'Bearer revoked' },
    }),
  );
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Users' })
    .click();
  await waitForPath(page, '/login');
});

test('logout from the user menu goes to the login screen and forgets the token', async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await waitForPath(page, '/login');
  assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
  await page.goto('/devices');
  await waitForPath(page, '/login');
});

test('register: password rules, a new organization, then signed in; a taken e-mail says User already exist', async ({
  page,
  shot,
}) => {
  const email = uniqueEmail('founder');
  await page.goto('/register');
  await page.getByLabel('Organization').fill('Acme Security');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Founder');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm password').fill('different');
  await page.getByRole('button', { name: 'Register' }).click();
  await visible(page.getByText('Min 8 characters'));
  await visible(page.getByText('Passwords must match'));
  await page.getByLabel('Password', { exact: true }).fill('longenough1!');
  await visible(page.getByText('Must have one uppercase character'));
  await page.getByLabel('Password', { exact: true }).fill('Longenough!');
  await visible(page.getByText('Must have one number'));
  await page.getByLabel('Password', { exact: true }).fill('Longenough1');
  await visible(page.getByText('Must have one special character among ! @ # $ %'));
  await page.getByLabel('Password', { exact: true }).fill('Longenough1!');
  await page.getByLabel('Confirm password').fill('Longenough1!');
  await shot('register-filled');
  await page.getByRole('button', { name: 'Register' }).click();
  await waitForPath(page, '/devices');
  await page.goto('/account');
  await visible(page.getByLabel('Organization'));
  assert.equal(await page.getByLabel('Organization').inputValue(), 'Acme Security');
  assert.equal(await page.getByLabel('Role').inputValue(), 'Administrator');

  await page.getByRole('button', { name: 'Logout' }).click();
  await waitForPath(page, '/login');
  await page.goto('/register');
  await page.getByLabel('Organization').fill('Acme again');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Longenough1!');
  await page.getByLabel('Confirm password').fill('Longenough1!');
  await page.getByRole('button', { name: 'Register' }).click();
  await waitForNotice(page, 'User already exist');
});

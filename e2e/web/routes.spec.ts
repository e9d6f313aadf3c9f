// Spec §2: the route table, guards and redirects.
import { assert, signIn, visible, waitForPath } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

const GUARDED = [
  '/home',
  '/alerts',
  '/monitoring',
  '/firewall',
  '/policies',
  '/devices',
  '/account',
  '/admin/users/all',
  '/admin/users/create',
  '/admin/users/edit/1',
  '/audit',
];

const AREAS = [
  { path: '/home', title: 'Home' },
  { path: '/devices', title: 'Devices' },
  { path: '/monitoring', title: 'Monitoring' },
  { path: '/alerts', title: 'Alerts' },
  { path: '/policies', title: 'Policies' },
  { path: '/firewall', title: 'Firewall' },
  { path: '/deploy', title: 'Deploy' },
  { path: '/account', title: 'Account' },
  { path: '/admin/users/all', title: 'Users' },
  { path: '/admin/users/create', title: 'New user' },
  { path: '/audit', title: 'Audit log' },
];

test('logged out: guarded screens, / and unknown paths end at /login', async ({ page, shot }) => {
  for (const path of [...GUARDED, '/', '/no/such/page', '/admin']) {
    await page.goto(path);
    await waitForPath(page, '/login');
  }
  await visible(page.getByRole('heading', { name: 'Sign in' }));
  await shot('login');
});

test('logged out: sign-in screens open without a guard', async ({ page, shot }) => {
  await page.goto('/register');
  await visible(page.getByRole('heading', { name: 'Register' }));
  await shot('register');
  await page.goto('/lost');
  await visible(page.getByRole('heading', { name: 'Lost password' }));
  await shot('lost-password');
  await page.goto('/reset-password?token=abc');
  await visible(page.getByRole('heading', { name: 'Recover password' }));
  await shot('recover-password');
  await page.goto('/reset-password');
  await visible(page.getByText('This page needs the link from the password recovery e-mail.'));
});

test('logged in: /login, /, /register and unknown paths go to Devices; /admin to the user list', async ({
  page,
}) => {
  await signIn(page);
  for (const path of ['/login', '/', '/register', '/no/such/page']) {
    await page.goto(path);
    await waitForPath(page, '/devices');
  }
  await page.goto('/admin');
  await waitForPath(page, '/admin/users/all');
});

test('logged in: every area opens from the navigation with its title', async ({ page, shot }) => {
  await signIn(page);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  for (const area of AREAS) {
    if (area.path === '/admin/users/create') await page.goto(area.path);
    else await nav.getByRole('link', { name: area.title, exact: true }).click();
    await waitForPath(page, area.path);
    await visible(page.getByRole('heading', { level: 1, name: area.title }));
    await shot(`area${area.path.replaceAll('/', '-')}`);
  }
  assert.equal(await page.getByText('© 2025 Palisade. All rights reserved.').count(), 1);
});

test('a screen whose code cannot be fetched says so and offers a reload', async ({ page }) => {
  await signIn(page);
  await page.route(/\/assets\/account-[\w-]+\.js$/, (route) => route.abort('connectionreset'));
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Account' })
    .click();
  await visible(page.getByText('This screen could not be loaded.'));
  await visible(page.getByRole('button', { name: 'Reload' }));
  await visible(page.getByRole('navigation', { name: 'Main navigation' }));
  await page.unroute(/\/assets\/account-[\w-]+\.js$/);
  await page.getByRole('button', { name: 'Reload' }).click();
  await visible(page.getByRole('heading', { level: 1, name: 'Account' }));
});

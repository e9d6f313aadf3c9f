/* global document, getComputedStyle -- used in code that runs in the page */
// Layout, languages (Arabic right to left), notifications order, theme and custom styles.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  assert,
  recordNotices,
  openSignedIn,
  signIn,
  visible,
  waitForNotice,
  waitForPath,
} from '../lib/ui.ts';
import { test } from '../fixtures.ts';

test('language: Arabic turns the console right to left and is remembered; back to English', async ({
  page,
  shot,
}) => {
  await page.goto('/login');
  await page.getByLabel('Language').selectOption('ar');
  await visible(page.getByRole('heading', { name: 'تسجيل الدخول' }));
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ar');
  await shot('login-ar');

  await page.getByLabel('البريد الإلكتروني').fill('admin@example.com');
  await page.getByLabel('كلمة المرور').fill('Admin#2026');
  await page.getByRole('button', { name: 'دخول' }).click();
  await waitForPath(page, '/devices');
  await visible(
    page.getByRole('navigation', { name: 'التنقل الرئيسي' }).getByRole('link', { name: 'الأجهزة' }),
  );
  await waitForNotice(page, 'تم تسجيل الدخول');
  // The drawer slides to its side once the direction has changed: read it at rest.
  const drawerX = () =>
    page.evaluate(() => document.querySelector('.MuiDrawer-paper')?.getBoundingClientRect().x);
  await page
    .waitForFunction(
      () => (document.querySelector('.MuiDrawer-paper')?.getBoundingClientRect().x ?? 0) > 640,
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  const x = await drawerX();
  assert.ok(x !== undefined && x > 640, `drawer on the right in RTL (x=${x})`);
  await shot('devices-ar');
  await page.goto('/admin/users/all');
  await visible(page.getByText('عدد الصفوف في الصفحة'));
  await shot('users-ar');

  await page.reload();
  await visible(page.getByRole('heading', { level: 1, name: 'المستخدمون' }));
  await page.getByRole('button', { name: 'اللغة' }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await visible(page.getByRole('heading', { level: 1, name: 'Users' }));
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'ltr');
});

test('language: Russian from the browser language when nothing is stored', async ({
  browser,
  baseUrl,
}) => {
  const context = await browser.newContext({ baseURL: baseUrl, locale: 'ru-RU' });
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await visible(page.getByRole('heading', { name: 'Вход' }));
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
  } finally {
    await context.close();
  }
});

test('drawer: mini or shown, remembered across reloads', async ({ page, shot }) => {
  await signIn(page);
  const drawer = page.getByTestId('nav-drawer');
  assert.equal(await drawer.getAttribute('data-mini'), 'false');
  await page.getByRole('button', { name: 'Collapse navigation' }).click();
  assert.equal(await drawer.getAttribute('data-mini'), 'true');
  await shot('drawer-mini');
  await page.reload();
  await visible(page.getByRole('button', { name: 'Expand navigation' }));
  assert.equal(await page.getByTestId('nav-drawer').getAttribute('data-mini'), 'true');
  await page.getByRole('button', { name: 'Expand navigation' }).click();
  assert.equal(await page.getByTestId('nav-drawer').getAttribute('data-mini'), 'false');
});

test('notifications: one at a time, progress held, then success; account save and password change', async ({
  page,
  shot,
}) => {
  await openSignedIn(page, '/account');
  await visible(page.getByLabel('First name'));
  const notices = await recordNotices(page);
  await page.getByLabel('First name').fill('Alice');
  const clicked = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: 'Save' }).click();
  await waitForNotice(page, 'Account saved');
  await shot('account');
  const list = await notices.list();
  const texts = list.map((n) => n.text);
  const progress = texts.indexOf('Saving account');
  const success = texts.indexOf('Account saved');
  assert.ok(progress >= 0 && success > progress, `order: ${texts.join(' | ')}`);
  // The progress notice is pushed after the click; the success one can only show after
  // its 500 ms hold and the 500 ms gap, however fast the save and however busy the page.
  assert.ok(
    (list[success]?.at ?? 0) - clicked >= 1000,
    `progress held 500 ms, then a 500 ms gap: clicked at ${clicked}, ${JSON.stringify(list)}`,
  );

  await page.getByLabel('Current password').fill('Wrong#2026');
  await page.getByLabel('New password').fill('Admin#2026');
  await page.getByLabel('Confirm password').fill('Admin#2026');
  await page.getByRole('button', { name: 'Change password' }).click();
  await waitForNotice(page, 'Incorrect password');
  await page.getByRole('button', { name: 'Close' }).click();
  await page.getByLabel('Current password').fill('Admin#2026');
  await page.getByRole('button', { name: 'Change password' }).click();
  await waitForNotice(page, 'Password changed');
});

test('theme: /assets/theme.json replaces colours and /assets/custom.css is applied', async ({
  page,
  server,
  shot,
}) => {
  const assets = path.join(server.dataDir, 'public', 'assets');
  await writeFile(path.join(assets, 'theme.json'), JSON.stringify({ primary: '#8e24aa' }));
  await writeFile(
    path.join(assets, 'custom.css'),
    '.pal-card { border-top: 6px solid rgb(1, 2, 3); }',
  );
  try {
    await page.goto('/login');
    const button = page.getByRole('button', { name: 'Login' });
    await visible(button);
    await page.waitForFunction(
      () =>
        getComputedStyle(document.querySelector('.pal-submit')!).backgroundColor ===
        'rgb(142, 36, 170)',
    );
    await page.waitForFunction(
      () =>
        getComputedStyle(document.querySelector('.pal-card')!).borderTopColor === 'rgb(1, 2, 3)',
    );
    await shot('login-custom-theme');
    await signIn(page);
    const bar = page.locator('header.MuiAppBar-root');
    await page.waitForFunction(
      (el) => getComputedStyle(el).backgroundColor === 'rgb(142, 36, 170)',
      await bar.elementHandle(),
    );
  } finally {
    await rm(path.join(assets, 'theme.json'), { force: true });
    await rm(path.join(assets, 'custom.css'), { force: true });
  }
});

test('version check: changed versions with an update available show the info notice', async ({
  page,
}) => {
  // The real server ships matching versions; answer as a server with an update waiting.
  await page.route('**/api/v1/components', (route) =>
    route.fulfill({
      json: { packages: { server: { installed: '0.1.0', registry: '0.2.0' } } },
    }),
  );
  await signIn(page);
  await waitForNotice(page, 'Logged in');
  await page.getByRole('button', { name: 'Close' }).click();
  await waitForNotice(page, 'A new component versions available. Please update.');
  const notice = page.getByTestId('notification');
  assert.equal(await notice.getAttribute('data-color'), 'info');
  const cached = await page.evaluate(() => localStorage.getItem('component_versions'));
  assert.match(cached ?? '', /"registry":"0.2.0"/);
});

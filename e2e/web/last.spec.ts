/* global document -- used in code that runs in the page */
// Runs last: it trips the server's sign-in rate limit for one e-mail.
import { assert, uniqueEmail, visible, waitForPath } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

test('auth disabled on the server: signed in without a login, with a warning banner', async ({
  browser,
  smtp,
  shot,
}) => {
  const { startServer } = await import('../lib/env.ts');
  const server = await startServer({
    smtpPort: smtp.port,
    extraEnv: { AUTH_DISABLED: 'true' },
  });
  const context = await browser.newContext({ baseURL: server.baseUrl });
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await waitForPath(page, '/devices');
    await visible(page.getByTestId('auth-disabled-banner'));
    await visible(page.getByRole('link', { name: 'Users' }));
    await shot('auth-disabled');
    await page.getByRole('link', { name: 'Users' }).click();
    await visible(page.getByRole('row', { name: /admin@example.com/ }));
  } finally {
    await context.close();
    await server.stop();
  }
});

test('sign-in: repeated failures end in Too many login attempts (429)', async ({ page }) => {
  const email = uniqueEmail('guesser');
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  const error = page.getByTestId('login-error');
  let text = '';
  for (let attempt = 1; attempt <= 8 && text !== 'Too many login attempts'; attempt += 1) {
    await page.getByLabel('Password', { exact: true }).fill(`Guess#${attempt}000`);
    const answered = page.waitForResponse((r) => r.url().endsWith('/login/access-token'));
    await page.getByRole('button', { name: 'Login' }).click();
    await answered;
    await visible(error);
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('.pal-submit')?.disabled,
    );
    text = (await error.textContent()) ?? '';
  }
  assert.equal(text, 'Too many login attempts');
});

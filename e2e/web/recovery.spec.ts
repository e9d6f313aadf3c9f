// Lost password → e-mail through a real SMTP listener → reset link → new password.
import { assert, uniqueEmail, visible, waitForNotice, waitForPath } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

test('lost password: the mailed link sets a new password; the link works once', async ({
  page,
  api,
  smtp,
}) => {
  const email = uniqueEmail('forgetful');
  await api.register({ email, password: 'Original1!', organization: 'Forgetful Ltd' });
  const since = smtp.messages.length;

  await page.goto('/lost');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await visible(page.getByTestId('lost-sent'));
  const mail = await smtp.next(email, since);
  const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(mail.text)?.[0];
  assert.ok(link, `a reset link in the mail:\n${mail.text}`);

  await page.goto(link);
  await page.getByLabel('New password').fill('Changed2@');
  await page.getByLabel('Confirm password').fill('Changed2@');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await waitForPath(page, '/login');
  await waitForNotice(page, 'Password updated');

  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Changed2@');
  await page.getByRole('button', { name: 'Login' }).click();
  await waitForPath(page, '/devices');

  // The same link again: the server answers 400, which §8 reads as 'Incorrect username'.
  await page.goto(link);
  await page.getByLabel('New password').fill('Another3#');
  await page.getByLabel('Confirm password').fill('Another3#');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await waitForNotice(page, 'Incorrect username');
});

test('lost password: an unknown e-mail says User not found', async ({ page }) => {
  await page.goto('/lost');
  await page.getByLabel('E-mail').fill(uniqueEmail('nobody'));
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await waitForNotice(page, 'User not found');
});

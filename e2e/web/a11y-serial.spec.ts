/* global document -- used in code that runs in the page */
// Issue 19, item 9, the checks that cannot share the machine with other browser tests ("serial"):
// Deploy is read with a change staged, which sets the organization's deploy mode to staged for a
// moment (another test's save would wait for a deployment meanwhile); and the keyboard-alone flow
// makes a device that sorts among other tests' devices on the Devices list's first page. Every
// other screen's check is in a11y.spec.ts.
import type { Page } from '@playwright/test';
import { checkA11y, openScreen, switchToArabic } from '../lib/a11y.ts';
import { type apiClient, callApi } from '../lib/api.ts';
import { ADMIN } from '../lib/env.ts';
import { storeSession, visible, waitForNotice, waitForPath } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

/**
 * Makes a device on a profile of its own; `stage` stages the deploy mode and saves the profile,
 * so Deploy lists a pending change, and `restore` sets the mode back to immediate.
 */
async function arrangeStagedChange(baseUrl: string, api: ReturnType<typeof apiClient>) {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const call = (method: string, route: string, body: unknown) =>
    callApi(baseUrl, method, route, token, body);
  const profile = await call('POST', 'deviceconfigurationprofiles/', {
    name: `A11y staged ${Date.now().toString(36)}`,
    variables: { HOME_NET: '[10.0.0.0/8]' },
  });
  await call('POST', 'devices/', {
    name: `a11y-staged-${Date.now().toString(36)}`,
    password: 'sensor-secret-2026',
    profile_id: profile.id,
  });
  return {
    stage: async () => {
      await call('PUT', 'organization/settings', { deploy_mode: 'staged' });
      await call('PUT', `deviceconfigurationprofiles/${profile.id}`, {
        variables: { HOME_NET: `[10.${Math.floor(Math.random() * 200)}.0.0/16]` },
      });
    },
    restore: () => call('PUT', 'organization/settings', { deploy_mode: 'immediate' }),
  };
}

let arranged: ReturnType<typeof arrangeStagedChange> | undefined;

for (const language of ['en', 'ar']) {
  test(`a11y: /deploy has no axe violations (${language})`, async ({ page, baseUrl, api }) => {
    arranged ??= arrangeStagedChange(baseUrl, api);
    const change = await arranged;
    await change.stage();
    try {
      await storeSession(page);
      await openScreen(page, '/deploy', { table: true });
      if (language === 'ar') await switchToArabic(page);
      await visible(page.getByTestId('pending-deploy-banner'));
      await checkA11y(page, `/deploy (${language})`);
    } finally {
      await change.restore();
    }
  });
}

/** The focused element's accessible name as a person reads it (label, else its text). */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (el === null || el === document.body) return '';
    const labelledBy = el.getAttribute('aria-labelledby');
    // An empty aria-label (MUI's Tooltip leaves one) does not name an element.
    const label =
      el.getAttribute('aria-label') ||
      (labelledBy ? document.getElementById(labelledBy)?.textContent : null) ||
      (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ||
      el.textContent ||
      '';
    return label.replace(/\s+/g, ' ').trim();
  });

/**
 * Presses Tab (Shift+Tab with `back`) until the focused element is named `name`, at most `max`
 * presses.
 */
async function tabTo(page: Page, name: string, max = 40, { back = false } = {}) {
  const seen = [];
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const current = await focusedName(page);
    if (current === name || current.startsWith(`${name} `) || current.startsWith(`${name}*`)) {
      return;
    }
    seen.push(current);
  }
  throw new Error(`Tab never reached "${name}"; focus went through: ${seen.join(' | ')}`);
}

test('a11y: keyboard alone signs in, creates a device in its dialog, opens Monitoring', async ({
  page,
}) => {
  const name = `kbd-${Date.now().toString(36)}`;
  await page.goto('/login');
  // The screen's code loads after the page: Tab from the start once the form is there.
  await visible(page.getByRole('textbox', { name: 'E-mail' }), 30_000);
  await tabTo(page, 'E-mail');
  await page.keyboard.type(ADMIN.email);
  await tabTo(page, 'Password');
  await page.keyboard.type(ADMIN.password);
  await page.keyboard.press('Enter');
  await waitForPath(page, '/devices');
  await visible(page.locator('main table'), 30_000);

  await tabTo(page, 'New device', 60);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await visible(dialog);
  await tabTo(page, 'Name');
  await page.keyboard.type(name);
  await tabTo(page, 'Create device');
  await page.keyboard.press('Enter');
  await waitForNotice(page, 'Device created');
  const enrol = page.getByRole('dialog', { name: `Enrol ${name} as a sensor` });
  await visible(enrol);
  await checkA11y(page, 'the enrol dialog');
  await page.keyboard.press('Escape');
  await enrol.waitFor({ state: 'detached' });
  await visible(page.getByRole('row', { name: new RegExp(name) }));

  // The navigation comes before the page: back from the dialog's button, past no table row
  // (the list may be long when other tests made devices).
  await tabTo(page, 'Monitoring', 60, { back: true });
  await page.keyboard.press('Enter');
  await waitForPath(page, '/monitoring');
  await visible(page.getByRole('heading', { level: 1, name: 'Monitoring' }));
});

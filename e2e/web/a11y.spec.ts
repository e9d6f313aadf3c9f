/* global document -- used in code that runs in the page */
// Issue 19, item 9: axe-core (WCAG 2.0/2.1 A and AA) finds nothing on every screen of the
// console (spec §2's eight main screens, Deploy, Audit, the device page, the user forms and the
// signed-out pages), with data present so tables, chips and charts render, in English and Arabic.
import type { Page } from '@playwright/test';
import { checkA11y } from '../lib/a11y.ts';
import { type apiClient, callApi, eveTime, reportingDevice } from '../lib/api.ts';
import { ADMIN } from '../lib/env.ts';
import { signIn, visible, waitForNotice, waitForPath } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

/** What arrangeFleet made, as the screens' paths read it. */
type Fleet = { user: { id: number }; device: { id: number } };

/** Spec §2's main screens (Policies with each of its tabs), and what shows once loaded. */
const SCREENS = [
  { path: '/home' },
  { path: '/devices', table: true },
  { path: '/monitoring', table: true },
  { path: '/alerts', table: true },
  { path: '/policies?tab=policies', table: true },
  { path: '/policies?tab=groups', table: true },
  { path: '/policies?tab=rules', table: true },
  { path: '/policies?tab=sources', table: true },
  { path: '/policies?tab=analytics', table: true },
  { path: '/firewall', table: true },
  { path: '/account' },
  { path: '/admin/users/all', table: true },
  { path: '/admin/users/create' },
  { path: ({ user }: Fleet) => `/admin/users/edit/${user.id}`, label: '/admin/users/edit/{id}' },
  { path: ({ device }: Fleet) => `/devices/${device.id}`, label: '/devices/{id}' },
  { path: '/audit', table: true },
  { path: '/deploy', table: true, staged: true },
];

/** The screens shown signed out (a reset link with a made-up token still shows its form). */
const PUBLIC_SCREENS = ['/login', '/register', '/lost', '/reset-password?token=a11y-made-up'];

/** The sensor health a heartbeat carries (issue 19 item 6), so the device page charts it. */
const HEALTH = {
  time: eveTime(),
  kernel_packets: 2_000_000,
  kernel_drops: 150_000,
  drop_percent: 7.5,
  alerts_per_min: 42,
  decoder_bytes: 900_000_000,
  flow_memuse: 7_340_032,
  rules_loaded: 17_674,
  rules_failed: 11,
  last_reload: eveTime(),
};

/** Arranges through the API: a reporting device with alerts of each severity, a firewall ruleset. */
export async function arrangeFleet(baseUrl: string, api: ReturnType<typeof apiClient>) {
  const call = (method: string, route: string, token: string, body: unknown) =>
    callApi(baseUrl, method, route, token, body);
  const token = await api.token(ADMIN.email, ADMIN.password);
  const password = 'sensor-secret-2026';
  const sensor = await reportingDevice(
    baseUrl,
    token,
    { name: `a11y-${Date.now().toString(36)}`, password, city: 'Lab' },
    {
      metrics: {
        cpu: 12,
        memory_used: 1_600_000_000,
        memory_total: 4_000_000_000,
        disk_used: 12_000_000_000,
        disk_total: 64_000_000_000,
        net_in: 250_000,
        net_out: 40_000,
      },
      health: HEALTH,
    },
  );
  const { device } = sensor;
  const events = Array.from({ length: 12 }, (_, i) => ({
    timestamp: eveTime(60 - i),
    event_type: 'alert',
    flow_id: 5000 + i,
    src_ip: '10.9.0.2',
    src_port: 40000 + i,
    dest_ip: '198.51.100.7',
    dest_port: 443,
    proto: 'TCP',
    alert: {
      action: 'allowed',
      gid: 1,
      signature_id: 4_000_000 + (i % 3),
      rev: 1,
      signature: `A11Y test signature ${i % 3}`,
      category: 'Misc activity',
      severity: (i % 3) + 1,
    },
  }));
  await sensor.sendAlerts(events);
  await call('POST', 'fwruleset/', token, {
    name: `A11y edge ${Date.now().toString(36)}`,
    policies: { input: 'drop', forward: 'drop', output: 'accept' },
    rules: [
      {
        chain: 'input',
        action: 'accept',
        protocol: 'tcp',
        destination_ports: '22',
        comment: 'ssh',
      },
      {
        chain: 'input',
        action: 'drop',
        protocol: 'tcp',
        destination_ports: '23',
        comment: 'telnet',
      },
    ],
  });
  const user = await api.createUser(token, {
    email: `a11y-${Date.now().toString(36)}@example.com`,
    password: 'Operator#2026',
    role: 'Operator',
  });
  const profile = await call('POST', 'deviceconfigurationprofiles/', token, {
    name: `A11y staged ${Date.now().toString(36)}`,
    variables: { HOME_NET: '[10.0.0.0/8]' },
  });
  await call('POST', 'devices/', token, {
    name: `a11y-staged-${Date.now().toString(36)}`,
    password,
    profile_id: profile.id,
  });
  /** Stages saves and makes one, so Deploy lists a pending change; `restore` undoes the mode. */
  const stage = async () => {
    await call('PUT', 'organization/settings', token, { deploy_mode: 'staged' });
    await call('PUT', `deviceconfigurationprofiles/${profile.id}`, token, {
      variables: { HOME_NET: `[10.${Math.floor(Math.random() * 200)}.0.0/16]` },
    });
  };
  const restore = () => call('PUT', 'organization/settings', token, { deploy_mode: 'immediate' });
  return { device, user, stage, restore };
}

/** Opens `path` and waits until its heading (and table, where it has one) has rendered. */
async function openScreen(page: Page, path: string, { table }: { table?: boolean }) {
  await page.goto(path);
  await waitForPath(page, path.split('?')[0] ?? path);
  await visible(page.getByRole('heading', { level: 1 }), 30_000);
  if (table) await visible(page.locator('main table'), 30_000);
  await page.waitForFunction(
    () => document.querySelectorAll('main .MuiSkeleton-root').length === 0,
  );
}

async function switchToArabic(page: Page) {
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitem', { name: 'العربية' }).click();
  await page.waitForFunction(() => document.documentElement.dir === 'rtl');
}

let arranged;

/** One test per screen and language, so a report names the screen and each stays short. */
for (const language of ['en', 'ar']) {
  for (const path of PUBLIC_SCREENS) {
    test(`a11y: ${path.split('?')[0]} has no axe violations (${language})`, async ({ page }) => {
      await page.goto(path);
      await waitForPath(page, path.split('?')[0] ?? path);
      if (language === 'ar') {
        if (path === '/login') await page.getByLabel('Language').selectOption('ar');
        else await switchToArabic(page);
        await page.waitForFunction(() => document.documentElement.dir === 'rtl');
      }
      await visible(page.getByRole('heading', { level: 1 }));
      await checkA11y(page, `${path.split('?')[0]} (${language})`);
    });
  }
  for (const screen of SCREENS) {
    const label = screen.label ?? screen.path;
    test(`a11y: ${label} has no axe violations (${language})`, async ({ page, baseUrl, api }) => {
      arranged ??= arrangeFleet(baseUrl, api);
      const fleet = await arranged;
      const path = typeof screen.path === 'function' ? screen.path(fleet) : screen.path;
      if (screen.staged) await fleet.stage();
      try {
        await signIn(page);
        if (language === 'ar') await switchToArabic(page);
        await openScreen(page, path, screen);
        if (screen.staged) await visible(page.getByTestId('pending-deploy-banner'));
        await checkA11y(page, `${label} (${language})`);
      } finally {
        if (screen.staged) await fleet.restore();
      }
    });
  }
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

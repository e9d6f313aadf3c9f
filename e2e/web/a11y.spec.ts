/* global document -- used in code that runs in the page */
// Issue 19, item 9: axe-core (WCAG 2.0/2.1 A and AA) finds nothing on every screen of the
// console (spec §2's eight main screens, Audit, the device page, the user forms and the
// signed-out pages), with data present so tables, chips and charts render, in English and Arabic.
// The tests run on both workers beside the other browser files ("parallel"): what they arrange is
// named to sort after those files' devices and users, which expect theirs on a list's first page.
// Deploy with a staged change, and the keyboard-alone flow, are in a11y-serial.spec.ts.
import { checkA11y, openScreen, switchToArabic } from '../lib/a11y.ts';
import { type apiClient, callApi, eveTime, reportingDevice } from '../lib/api.ts';
import { ADMIN } from '../lib/env.ts';
import { storeSession, visible, waitForPath } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

test.describe.configure({ mode: 'parallel' });
// Each test ends by checking its screen, named with its language: not a second time after it.
test.use({ a11yAtEnd: false });

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

/**
 * Arranges through the API (names sort last, see above): a reporting device with alerts of each
 * severity, a firewall ruleset, an Operator.
 */
async function arrangeFleet(baseUrl: string, api: ReturnType<typeof apiClient>) {
  const call = (method: string, route: string, token: string, body: unknown) =>
    callApi(baseUrl, method, route, token, body);
  const token = await api.token(ADMIN.email, ADMIN.password);
  const password = 'sensor-secret-2026';
  const sensor = await reportingDevice(
    baseUrl,
    token,
    { name: `zz-a11y-${Date.now().toString(36)}`, password, city: 'Lab' },
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
    name: `zz-a11y edge ${Date.now().toString(36)}`,
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
    email: `zz-a11y-${Date.now().toString(36)}@example.com`,
    password: 'Operator#2026',
    role: 'Operator',
  });
  return { device, user };
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
      await storeSession(page);
      await openScreen(page, path, screen);
      if (language === 'ar') await switchToArabic(page);
      await checkA11y(page, `${label} (${language})`);
    });
  }
}

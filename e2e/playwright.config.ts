// The end-to-end suite, one command (`npx playwright test -c e2e/playwright.config.ts`, the last
// step of `npm test`) against the built app: the real server, started once by global-setup.ts,
// with the console driven in Debian's Chromium (never a downloaded browser).
//   e2e/web/    the console in the browser (`test` of fixtures.ts: a page, axe after each test);
//   e2e/api/    the API through Playwright's APIRequestContext (`apiTest`: no page);
//   e2e/agent/  the built agent (apps/agent/dist-release) enrolled and run against the server.
// monitoring-alerts.spec.ts and onboarding.spec.ts run first ("first": they want an
// organization without alerts and with few devices);
// then files that only make their own uniquely named objects run two at a time: the browser's
// ("parallel"), then the API's and the agent's ("api": they would otherwise push a browser
// test's new device off the first page of a list sorted by name);
// files that change what the whole organization or server shows run after them one at a time
// ("serial"), and last.spec.ts (auth disabled, the sign-in rate limit) after everything.
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './lib/env.ts';

/**
 * Run first, one at a time (in this order, by name): they expect an organization with no alert
 * yet (monitoring-alerts) and few devices, their new ones on the Devices list's first page
 * (onboarding).
 */
const FIRST = ['web/monitoring-alerts.spec.ts', 'web/onboarding.spec.ts'];
/** Change organization-wide or server-wide state, or measure timings a busy machine skews. */
const SERIAL = [
  'web/a11y-serial.spec.ts', // deploy mode staged for a screen, then back; a device named kbd-
  'web/deploy.spec.ts', // deploy mode staged and the heartbeat grace
  'web/layout.spec.ts', // the admin's password, the server's theme and component versions
  'web/live-devices.spec.ts', // latency limits of the live device list
];
const LAST = ['web/last.spec.ts'];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../test-results',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  // Generous: the suite runs on shared 2-core machines where CI found the same flows three times
  // slower than on a quiet one (a 25 s flow went past 60 s). Speed is the benchmarks' business.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: '../playwright-report' }]],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
    },
    locale: 'en-US',
    // The console honours the system's reduced motion (no transitions, no ripple): a dialog is
    // there at once, and Chromium draws fewer frames (on two spec files its CPU fell by a third,
    // the machine's by a sixth).
    reducedMotion: 'reduce',
    viewport: { width: 1280, height: 800 },
    // playwright-core's own defaults, which the tests were written against.
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'first', testMatch: FIRST.map((file) => `**/${file}`), workers: 1 },
    {
      // e2e/web but for the files of the other projects.
      name: 'parallel',
      testMatch: 'web/**/*.spec.ts',
      testIgnore: [...FIRST, ...SERIAL, ...LAST].map((file) => `**/${file}`),
      dependencies: ['first'],
    },
    {
      // e2e/api and e2e/agent whole, no page.
      name: 'api',
      testMatch: ['api/**/*.spec.ts', 'agent/**/*.spec.ts'],
      dependencies: ['parallel'],
    },
    {
      name: 'serial',
      testMatch: SERIAL.map((file) => `**/${file}`),
      dependencies: ['api'],
      workers: 1,
    },
    {
      name: 'last',
      testMatch: LAST.map((file) => `**/${file}`),
      dependencies: ['serial'],
      workers: 1,
    },
  ],
});

// The browser tests' `test`: Playwright's, with what the global set-up started (the server,
// the SMTP listener's mail, the benchmark pages) and, after every test, the checks each one
// ends with: no uncaught error in the page, and axe's WCAG 2.1 A/AA rules on the screen left.
import path from 'node:path';
import { test as base } from '@playwright/test';

export { expect } from '@playwright/test';
import { checkA11y } from './lib/a11y.ts';
import { apiClient } from './lib/api.ts';
import { ROOT, smtpClient } from './lib/env.ts';

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set: run through playwright.config.ts`);
  return value;
}

type Shared = {
  api: ReturnType<typeof apiClient>;
  smtp: ReturnType<typeof smtpClient>;
  server: { baseUrl: string; dataDir: string };
  baseUrl: string;
  benchUrl: string;
};

type PerTest = {
  /** A screenshot of the page as `test-results/<name>.png`. */
  shot: (name: string) => Promise<Buffer>;
  /** After the test: uncaught page errors, then the accessibility check (automatic). */
  endChecks: void;
};

const shots = path.join(ROOT, 'test-results');

export const test = base.extend<PerTest, Shared>({
  baseUrl: [async ({}, use) => use(env('E2E_BASE_URL')), { scope: 'worker' }],
  benchUrl: [async ({}, use) => use(env('E2E_BENCH_URL')), { scope: 'worker' }],
  server: [
    async ({ baseUrl }, use) => use({ baseUrl, dataDir: env('E2E_DATA_DIR') }),
    { scope: 'worker' },
  ],
  api: [async ({ baseUrl }, use) => use(apiClient(baseUrl)), { scope: 'worker' }],
  smtp: [
    async ({}, use) => use(smtpClient(Number(env('E2E_SMTP_PORT')), env('E2E_SMTP_SPOOL'))),
    { scope: 'worker' },
  ],
  baseURL: async ({ baseUrl }, use) => use(baseUrl),
  shot: async ({ page }, use) => {
    await use((name) => page.screenshot({ path: path.join(shots, `${name}.png`) }));
  },
  endChecks: [
    async ({ page, baseUrl }, use, testInfo) => {
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await use();
      if (testInfo.status !== testInfo.expectedStatus) return;
      if (pageErrors.length > 0) throw new Error(`uncaught page errors: ${pageErrors.join('; ')}`);
      // Issue 19: axe's WCAG 2.1 A/AA rules on the screen each test leaves the console on
      // (with any dialog still open); a violation fails the test.
      if (!page.isClosed() && page.url().startsWith(baseUrl)) {
        await checkA11y(page, `${new URL(page.url()).pathname} at the end of the test`);
      }
    },
    { auto: true },
  ],
});

// The end-to-end tests' `test`s: Playwright's, with what the global set-up started (the server,
// the SMTP listener's mail, the benchmark pages). `test` (e2e/web) adds, after every test, the
// checks each browser test ends with: no uncaught error in the page, and axe's WCAG 2.1 A/AA
// rules on the screen left. `apiTest` (e2e/api, e2e/agent) opens no page: it gives an
// Administrator's APIRequestContext and makes users of other roles.
import path from 'node:path';
import { type APIRequestContext, test as base } from '@playwright/test';

export { expect } from '@playwright/test';
import { checkA11y } from './lib/a11y.ts';
import { apiClient } from './lib/api.ts';
import { ADMIN, ROOT, smtpClient } from './lib/env.ts';
import { uniqueEmail } from './lib/ui.ts';

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
  /**
   * Whether endChecks runs axe on the screen the test leaves (an option, on by default): off
   * where each test ends by checking its screen itself (a11y.spec.ts), which would be read twice.
   */
  a11yAtEnd: boolean;
  /** After the test: uncaught page errors, then the accessibility check (automatic). */
  endChecks: void;
};

const shots = path.join(ROOT, 'test-results');

const shared = base.extend<object, Shared>({
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
});

export const test = shared.extend<PerTest>({
  baseURL: async ({ baseUrl }, use) => use(baseUrl),
  shot: async ({ page }, use) => {
    await use((name) => page.screenshot({ path: path.join(shots, `${name}.png`) }));
  },
  a11yAtEnd: [true, { option: true }],
  endChecks: [
    async ({ page, baseUrl, a11yAtEnd }, use, testInfo) => {
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await use();
      if (testInfo.status !== testInfo.expectedStatus) return;
      if (pageErrors.length > 0) throw new Error(`uncaught page errors: ${pageErrors.join('; ')}`);
      // Issue 19: axe's WCAG 2.1 A/AA rules on the screen each test leaves the console on
      // (with any dialog still open); a violation fails the test.
      if (a11yAtEnd && !page.isClosed() && page.url().startsWith(baseUrl)) {
        await checkA11y(page, `${new URL(page.url()).pathname} at the end of the test`);
      }
    },
    { auto: true },
  ],
});

/** Roles of the contract (`Role`) a test user may have besides Administrator. */
export type UserRole = 'Administrator' | 'Operator' | 'Viewer';

type ApiWorker = {
  /** The seeded Administrator's bearer token, signed in once per worker. */
  adminToken: string;
};

type ApiPerTest = {
  /** The API (`baseURL` is `…/api/v1/`: routes are relative, `devices/`) as the Administrator. */
  admin: APIRequestContext;
  /**
   * A new active user of the Administrator's organization with `role` (a unique e-mail), and
   * the API as that user. Its contexts are disposed and the user deleted after the test.
   */
  userWithRole: (
    role: UserRole,
  ) => Promise<{ email: string; password: string; as: APIRequestContext }>;
  /**
   * Deletes (as the Administrator) after the test what it was given: `devices/42`. The tests
   * of the `api` project run before `serial`, whose browser tests expect their new devices and
   * users on the first page of lists sorted by name.
   */
  removeAfter: (route: string) => void;
};

/** The password of every user `userWithRole` makes (the contract's rules: 8+, upper, digit, !). */
export const USER_PASSWORD = 'E2e-user#2026';

export const apiTest = shared.extend<ApiPerTest, ApiWorker>({
  baseURL: async ({ baseUrl }, use) => use(`${baseUrl}/api/v1/`),
  adminToken: [
    async ({ api }, use) => use(await api.token(ADMIN.email, ADMIN.password)),
    { scope: 'worker' },
  ],
  admin: async ({ playwright, baseURL, adminToken }, use) => {
    const context = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { authorization: `Bearer ${adminToken}` },
    });
    await use(context);
    await context.dispose();
  },
  removeAfter: async ({ admin }, use) => {
    const routes: string[] = [];
    await use((route) => routes.push(route));
    for (const route of routes.reverse()) {
      const response = await admin.delete(route);
      if (!response.ok()) throw new Error(`DELETE ${route}: ${response.status()}`);
    }
  },
  userWithRole: async ({ playwright, baseURL, api, adminToken, removeAfter }, use) => {
    const contexts: APIRequestContext[] = [];
    await use(async (role) => {
      const email = uniqueEmail(role.toLowerCase());
      const user = (await api.createUser(adminToken, {
        email,
        password: USER_PASSWORD,
        role,
      })) as { id: number };
      removeAfter(`users/${user.id}`);
      const token = await api.token(email, USER_PASSWORD);
      const as = await playwright.request.newContext({
        baseURL,
        extraHTTPHeaders: { authorization: `Bearer ${token}` },
      });
      contexts.push(as);
      return { email, password: USER_PASSWORD, as };
    });
    for (const context of contexts) await context.dispose();
  },
});

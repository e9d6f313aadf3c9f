// Browser end-to-end tests: the built console served by the real server, driven in
// Debian's Chromium. Every run starts its own SMTP listener, server (free port, fresh
// DATA_DIR) and browser. Prints `e2e: N passed, N failed` and exits non-zero on failure.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { apiClient } from './lib/api.mjs';
import { ROOT, launchChromium, startBenchPages, startServer, startSmtp } from './lib/env.mjs';
import { failureTests, tests as routes } from './web/routes.spec.mjs';
import { tests as signIn } from './web/sign-in.spec.mjs';
import { tests as recovery } from './web/recovery.spec.mjs';
import { tests as layout, versionTests } from './web/layout.spec.mjs';
import { tests as users } from './web/users.spec.mjs';
import { tests as table } from './web/table.spec.mjs';
import { tests as policies } from './web/policies.spec.mjs';
import { tests as rules } from './web/rules.spec.mjs';
import { tests as monitoringAlerts } from './web/monitoring-alerts.spec.mjs';
import { tests as devices } from './web/devices.spec.mjs';
import { tests as firewall } from './web/firewall.spec.mjs';
import { tests as onboarding } from './web/onboarding.spec.mjs';
import { tests as unsaved } from './web/unsaved.spec.mjs';
import { tests as ruleSources } from './web/rule-sources.spec.mjs';
import { authDisabledTests, tests as last } from './web/last.spec.mjs';

const TEST_TIMEOUT_MS = 60_000;
const only = process.argv[2];
const all = [
  ...routes,
  ...failureTests,
  ...signIn,
  ...recovery,
  ...layout,
  ...versionTests,
  ...users,
  ...table,
  ...policies,
  ...rules,
  ...monitoringAlerts,
  ...devices,
  ...firewall,
  ...onboarding,
  ...unsaved,
  ...ruleSources,
  ...authDisabledTests,
  ...last,
];
const selected = only ? all.filter((t) => t.name.includes(only)) : all;

const shots = path.join(ROOT, 'test-results');
await mkdir(shots, { recursive: true });

const smtp = await startSmtp();
const server = await startServer({ smtpPort: smtp.port });
const benchPages = await startBenchPages();
const browser = await launchChromium();
const api = apiClient(server.baseUrl);
let passed = 0;
let failed = 0;

try {
  for (const test of selected) {
    const context = await browser.newContext({
      baseURL: server.baseUrl,
      locale: 'en-US',
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const started = Date.now();
    const env = {
      page,
      context,
      browser,
      api,
      smtp,
      server,
      baseUrl: server.baseUrl,
      benchUrl: `${benchPages.baseUrl}/bench.html`,
      shot: (name) => page.screenshot({ path: path.join(shots, `${name}.png`) }),
    };
    try {
      await Promise.race([
        test.run(env),
        new Promise((_, reject) =>
          setTimeout(
            () => reject(new Error(`timed out after ${TEST_TIMEOUT_MS} ms`)),
            TEST_TIMEOUT_MS,
          ),
        ),
      ]);
      if (pageErrors.length > 0) throw new Error(`uncaught page errors: ${pageErrors.join('; ')}`);
      passed += 1;
      console.log(`ok   ${test.name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed += 1;
      console.log(
        `FAIL ${test.name}\n     ${String(error?.stack ?? error)
          .split('\n')
          .slice(0, 6)
          .join('\n     ')}`,
      );
      await page
        .screenshot({ path: path.join(shots, `failed-${test.name.replace(/\W+/g, '-')}.png`) })
        .catch(() => undefined);
    } finally {
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
  await benchPages.stop();
  await smtp.close();
}

console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);

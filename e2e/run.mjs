// Browser end-to-end tests: the built console served by the real server, driven in
// Debian's Chromium. Every run starts its own SMTP listener, server (free port, fresh
// DATA_DIR) and browser. Prints `e2e: N passed, N failed` and exits non-zero on failure.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { checkA11y } from './lib/a11y.mjs';
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
import { tests as firewallHits } from './web/firewall-hits.spec.mjs';
import { tests as changeReview } from './web/change-review.spec.mjs';
import { tests as lockout } from './web/lockout.spec.mjs';
import { tests as onboarding } from './web/onboarding.spec.mjs';
import { tests as unsaved } from './web/unsaved.spec.mjs';
import { tests as ruleSources } from './web/rule-sources.spec.mjs';
import { tests as deploy } from './web/deploy.spec.mjs';
import { tests as expiry } from './web/expiry.spec.mjs';
import { tests as audit } from './web/audit.spec.mjs';
import { tests as versions } from './web/versions.spec.mjs';
import { tests as alertTriage } from './web/alert-triage.spec.mjs';
import { tests as ruleAnalytics } from './web/rule-analytics.spec.mjs';
import { tests as health } from './web/health.spec.mjs';
import { tests as liveDevices } from './web/live-devices.spec.mjs';
import { tests as a11y, keyboardTests } from './web/a11y.spec.mjs';
import { authDisabledTests, tests as last } from './web/last.spec.mjs';

/** A test's time, unless it names its own (`timeout`, in ms) for a longer walk through. */
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
  ...firewallHits,
  ...changeReview,
  ...lockout,
  ...onboarding,
  ...unsaved,
  ...ruleSources,
  ...deploy,
  ...expiry,
  ...audit,
  ...versions,
  ...alertTriage,
  ...ruleAnalytics,
  ...health,
  ...liveDevices,
  ...a11y,
  ...keyboardTests,
  ...authDisabledTests,
  ...last,
];
const selected = only ? all.filter((t) => t.name.includes(only)) : all;

const shots = path.join(ROOT, 'test-results');
await mkdir(shots, { recursive: true });

const smtp = await startSmtp();
// Jobs looked for every 5 s (60 by default): a canary gate or a scheduled source update then
// happens within a test's time.
const server = await startServer({ smtpPort: smtp.port, extraEnv: { JOB_CHECK_SECONDS: '5' } });
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
            () => reject(new Error(`timed out after ${test.timeout ?? TEST_TIMEOUT_MS} ms`)),
            test.timeout ?? TEST_TIMEOUT_MS,
          ),
        ),
      ]);
      if (pageErrors.length > 0) throw new Error(`uncaught page errors: ${pageErrors.join('; ')}`);
      // Issue 19: axe's WCAG 2.1 A/AA rules on the screen each test leaves the console on
      // (with any dialog still open); a violation fails the test.
      if (!page.isClosed() && page.url().startsWith(server.baseUrl)) {
        await checkA11y(page, `${new URL(page.url()).pathname} at the end of the test`);
      }
      passed += 1;
      console.log(`ok   ${test.name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed += 1;
      // The whole message (an accessibility report lists every violation), then where it came from.
      const message = String(error?.message ?? error);
      const where = String(error?.stack ?? '')
        .split('\n')
        .filter((line) => /^\s+at /.test(line))
        .slice(0, 5);
      console.log(
        `FAIL ${test.name}\n     ${[message, ...where].join('\n').split('\n').join('\n     ')}`,
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

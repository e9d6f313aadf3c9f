/* global window, document, MutationObserver -- used in code that runs in the page */
// Accessibility checks of the browser tests (issue 19 item 9): axe-core's WCAG 2.1 A and AA
// rules on the page as it is now. axe-core's source is evaluated in the page over the
// DevTools protocol, which the console's Content-Security-Policy does not govern.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { visible, waitForPath } from './ui.ts';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

let axeSource: string | undefined;

/** One violated rule as the tests report it. */
export interface Violation {
  id: string;
  impact: string | null | undefined;
  help: string;
  helpUrl: string;
  nodes: { target: string; summary: string }[];
}

/** What axe.run answers, as far as the tests read it. */
interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * Brings the page to rest before axe reads it: CSS transitions and animations are switched off
 * (axe judges the colours a user reads, not a button fading from disabled to enabled while a
 * query lands during the run), then waits until the DOM has not changed for 300 ms.
 */
async function settle(page: Page) {
  await page.evaluate(() => {
    if (document.getElementById('a11y-no-motion')) return;
    const style = document.createElement('style');
    style.id = 'a11y-no-motion';
    style.textContent =
      '*, *::before, *::after { transition: none !important; animation-duration: 0s !important; }';
    document.head.append(style);
  });
  await page
    .evaluate(
      () =>
        new Promise((resolve) => {
          let timer = setTimeout(finish, 300);
          const observer = new MutationObserver(() => {
            clearTimeout(timer);
            timer = setTimeout(finish, 300);
          });
          function finish() {
            observer.disconnect();
            resolve(undefined);
          }
          observer.observe(document.body, {
            subtree: true,
            childList: true,
            attributes: true,
            characterData: true,
          });
          // A page that never rests (a live clock) is read after 5 s all the same.
          setTimeout(finish, 5_000);
        }),
    )
    .catch(() => undefined);
}

/** axe's violations on the page now, as plain objects (rule, impact, help, target selectors). */
export async function a11yViolations(page: Page): Promise<Violation[]> {
  axeSource ??= await readFile(AXE_PATH, 'utf8');
  await settle(page);
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  return page.evaluate(async (tags: string[]) => {
    const result: { violations: AxeViolation[] } = await window.axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      helpUrl: violation.helpUrl,
      nodes: violation.nodes.map((node) => ({
        target: node.target.map(String).join(' '),
        summary: node.failureSummary ?? '',
      })),
    }));
  }, TAGS);
}

/** The violations as lines a person reads: rule, impact, help, then each element. */
export function formatViolations(violations: Violation[]) {
  return violations
    .map((violation) =>
      [
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.helpUrl}`,
        ...violation.nodes.map(
          (node) =>
            `    ${node.target}` +
            (node.summary ? `\n      ${node.summary.split('\n').slice(1).join(' ').trim()}` : ''),
        ),
      ].join('\n'),
    )
    .join('\n');
}

/**
 * Runs axe (WCAG 2.0/2.1 A and AA) on the page's current state and throws when it finds a
 * violation, naming each rule, its impact, the elements and a help line.
 */
export async function checkA11y(page: Page, label = page.url()) {
  const violations = await a11yViolations(page);
  if (violations.length === 0) return;
  const count = violations.reduce((sum, violation) => sum + violation.nodes.length, 0);
  throw new Error(
    `accessibility: ${count} violation(s) on ${label}\n${formatViolations(violations)}`,
  );
}

/** Opens `path` and waits until its heading (and table, where it has one) has rendered. */
export async function openScreen(page: Page, path: string, { table }: { table?: boolean }) {
  await page.goto(path);
  await waitForPath(page, path.split('?')[0] ?? path);
  await visible(page.getByRole('heading', { level: 1 }), 30_000);
  if (table) await visible(page.locator('main table'), 30_000);
  await page.waitForFunction(
    () => document.querySelectorAll('main .MuiSkeleton-root').length === 0,
  );
}

/** Switches the signed-in console to Arabic from the top bar's language menu. */
export async function switchToArabic(page: Page) {
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitem', { name: 'العربية' }).click();
  await page.waitForFunction(() => document.documentElement.dir === 'rtl');
}

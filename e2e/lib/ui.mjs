/* global document, window, MutationObserver -- used in code that runs in the page */
// Small helpers over playwright-core (which has no test runner or expect).
import assert from 'node:assert/strict';
import { ADMIN } from './env.mjs';

export { assert };

/** Waits until the URL's path is `pathname` (history-mode redirects settle asynchronously). */
export async function waitForPath(page, pathname, timeout = 10_000) {
  await page.waitForURL((url) => url.pathname === pathname, { timeout });
}

export async function visible(locator, timeout = 10_000) {
  await locator.first().waitFor({ state: 'visible', timeout });
}

/** Waits until `locator` matches exactly `count` elements; fails naming the last count seen. */
export async function waitForCount(locator, count, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  let seen = await locator.count();
  while (seen !== count) {
    if (Date.now() > deadline) assert.equal(seen, count, `expected ${count} elements`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = await locator.count();
  }
}

export async function signIn(page, { email, password } = ADMIN) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await waitForPath(page, '/devices');
}

/** Texts of every notice shown, in order, recorded in the page from now on. */
export async function recordNotices(page) {
  await page.evaluate(() => {
    const seen = [];
    window.__notices = seen;
    const observer = new MutationObserver(() => {
      for (const node of document.querySelectorAll('[data-testid="notification"]')) {
        const text = node.textContent ?? '';
        const last = seen.at(-1);
        if (!last || last.text !== text) seen.push({ text, at: performance.now() });
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return {
    list: () => page.evaluate(() => window.__notices),
  };
}

export async function waitForNotice(page, text, timeout = 10_000) {
  await page
    .locator('[data-testid="notification"]', { hasText: text })
    .first()
    .waitFor({ state: 'visible', timeout });
}

let counter = 0;
/** A unique e-mail for this run. */
export function uniqueEmail(prefix) {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

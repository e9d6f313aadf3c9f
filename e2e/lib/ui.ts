/* global document, window, localStorage, MutationObserver -- used in code that runs in the page */
// Small helpers of the browser tests (written before they ran on @playwright/test).
import assert from 'node:assert/strict';
import type { Locator, Page } from '@playwright/test';
import { callApi } from './api.ts';
import { ADMIN } from './env.ts';

export { assert };

/**
 * How long the helpers below wait by default: as long as an action may take (`actionTimeout`
 * in playwright.config.ts). On a loaded 2-core machine (load average 9, another browser
 * worker beside) a screen's first render once took 11 s after its scripts had arrived.
 */
const WAIT_MS = 30_000;

/** Waits until the URL's path is `pathname` (history-mode redirects settle asynchronously). */
export async function waitForPath(page: Page, pathname: string, timeout = WAIT_MS) {
  await page.waitForURL((url: URL) => url.pathname === pathname, { timeout });
}

export async function visible(locator: Locator, timeout = WAIT_MS) {
  await locator.first().waitFor({ state: 'visible', timeout });
}

/** Waits until `locator` matches exactly `count` elements; fails naming the last count seen. */
export async function waitForCount(locator: Locator, count: number, timeout = WAIT_MS) {
  const deadline = Date.now() + timeout;
  let seen = await locator.count();
  while (seen !== count) {
    if (Date.now() > deadline) assert.equal(seen, count, `expected ${count} elements`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = await locator.count();
  }
}

export async function signIn(page: Page, { email, password } = ADMIN) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await waitForPath(page, '/devices');
}

/**
 * Signs in as the console does after its login form, without the form: the token the API
 * answers is put where the console keeps it (localStorage `token`), from a page of the server's
 * that runs no script. For tests about another screen; sign-in itself is signIn's.
 */
export async function storeSession(page: Page, { email, password } = ADMIN) {
  const response = await page.request.post('/api/v1/login/access-token', {
    form: { username: email, password },
  });
  assert.ok(response.ok(), `sign-in of ${email}: ${response.status()} ${await response.text()}`);
  const { access_token: token } = (await response.json()) as { access_token: string };
  await page.goto('/api/v1/health');
  await page.evaluate((value) => localStorage.setItem('token', value), token);
}

/** Opens `path` signed in (storeSession) and waits until the console shows that path. */
export async function openSignedIn(page: Page, path: string, credentials = ADMIN) {
  await storeSession(page, credentials);
  await page.goto(path);
  await waitForPath(page, new URL(path, 'http://console').pathname);
}

/** Texts of every notice shown, in order, recorded in the page from now on. */
export async function recordNotices(page: Page) {
  await page.evaluate(() => {
    const seen: { text: string; at: number }[] = [];
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

export async function waitForNotice(page: Page, text: string | RegExp, timeout = WAIT_MS) {
  await page
    .locator('[data-testid="notification"]', { hasText: text })
    .first()
    .waitFor({ state: 'visible', timeout });
}

let counter = 0;
/** A unique e-mail for this run. */
export function uniqueEmail(prefix: string) {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** Arranges state through the API (never to check the UI). */
export const apiCall = (
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
) => callApi(baseUrl, method, path, token, body);

/** Picks an option of the MUI select with this accessible name. */
export async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Drags a rule by its handle from row `from` to row `to` (0-based), as a mouse does. */
export async function dragRow(page: Page, table: Locator, from: number, to: number) {
  const handles = table.getByRole('button', { name: 'Drag to reorder' });
  const a = await handles.nth(from).boundingBox();
  const b = await handles.nth(to).boundingBox();
  if (!a || !b) throw new Error(`rows ${from} and ${to} are not both shown`);
  const x = a.x + a.width / 2;
  await page.mouse.move(x, a.y + a.height / 2);
  await page.mouse.down();
  for (let step = 1; step <= 12; step += 1) {
    await page.mouse.move(x, a.y + a.height / 2 + ((b.y - a.y) * step) / 12);
  }
  await page.mouse.up();
}

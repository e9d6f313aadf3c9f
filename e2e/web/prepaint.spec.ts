/* global document, localStorage -- used in code that runs in the page */
// The frame a signed-in page load paints before the console's scripts run (apps/web/src/app/
// prepaint): where the Devices screen then draws the same things, in each language and drawer
// width, and nothing of it on the sign-in page or once the session turns out to be invalid.
import type { Page } from '@playwright/test';
import { assert, storeSession, visible, waitForPath } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  text: string;
}

/** The painted frame's parts and the screen's, by what they are. */
const PARTS = {
  title: ['.pal-prepaint__title', 'header .MuiTypography-h6', 'text'],
  heading: ['.pal-prepaint__heading', 'main h1', 'text'],
  searchBox: ['.pal-prepaint__search-box', 'main .MuiOutlinedInput-root', 'box'],
  hint: ['.pal-prepaint__hint', 'main .MuiFormHelperText-root', 'text'],
  help: ['.pal-prepaint__help', '[data-testid="search-help"]', 'text'],
  drawerEdge: ['.pal-prepaint__drawer', '.MuiDrawer-paper', 'box'],
} as const;

type Part = keyof typeof PARTS;

function boxes(page: Page, which: 0 | 1): Promise<Record<Part, Box | null>> {
  const selectors: Record<string, [string, 'box' | 'text']> = {};
  for (const [part, found] of Object.entries(PARTS)) selectors[part] = [found[which], found[2]];
  return page.evaluate((wanted) => {
    const read = ([selector, what]: [string, 'box' | 'text']) => {
      const node = document.querySelector(selector);
      if (node === null) return null;
      // A text's own extent: the screen's app title, for one, is a box as wide as the bar.
      const range = document.createRange();
      range.selectNodeContents(node);
      const { x, y, width, height } = (what === 'text' ? range : node).getBoundingClientRect();
      return { x, y, width, height, text: node.textContent ?? '' };
    };
    return Object.fromEntries(
      Object.entries(wanted).map(([part, selector]) => [part, read(selector)]),
    ) as Record<Part, Box | null>;
  }, selectors);
}

/** Opens /devices with /users/me held back, so the frame stays up to be measured, then lets it go. */
async function frameThenScreen(page: Page) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/users/me', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/devices');
  await visible(page.locator('#prepaint .pal-prepaint__hint'));
  const frame = await boxes(page, 0);
  const direction = await page.evaluate(() => document.documentElement.dir);
  release();
  await page.locator('#prepaint').waitFor({ state: 'detached' });
  await visible(page.getByRole('heading', { level: 1 }));
  const screen = await boxes(page, 1);
  return { frame, screen, direction };
}

function assertSamePlace(frame: Record<Part, Box | null>, screen: Record<Part, Box | null>) {
  for (const part of Object.keys(PARTS) as Part[]) {
    const painted = frame[part];
    const drawn = screen[part];
    assert.ok(painted !== null, `the frame has its ${part}`);
    assert.ok(drawn !== null, `the screen has its ${part}`);
    for (const side of ['x', 'y', 'width', 'height'] as const) {
      assert.ok(
        Math.abs(painted[side] - drawn[side]) <= 1,
        `${part} ${side}: painted ${painted[side]}, drawn ${drawn[side]}`,
      );
    }
    // The drawer's edge and the search box hold what the screen adds (links, the input).
    if (part !== 'drawerEdge' && part !== 'searchBox') {
      assert.equal(painted.text, drawn.text, `${part} text`);
    }
  }
}

for (const { name, language, drawer, direction } of [
  { name: 'English', language: null, drawer: 'shown', direction: 'ltr' },
  { name: 'Arabic, right to left', language: 'ar', drawer: 'shown', direction: 'rtl' },
  { name: 'Russian, mini drawer', language: 'ru', drawer: 'mini', direction: 'ltr' },
]) {
  test(`prepaint: Devices is painted where the screen draws it (${name})`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await storeSession(page);
    await page.evaluate((main) => localStorage.setItem('palisade.main', JSON.stringify(main)), {
      language,
      drawer,
    });
    const result = await frameThenScreen(page);
    assert.equal(result.direction, direction);
    assertSamePlace(result.frame, result.screen);
  });
}

test('prepaint: nothing is painted for a visitor, and an expired session gets the sign-in page', async ({
  page,
}) => {
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.getElementById('prepaint') !== null) {
        document.documentElement.dataset['prepaintSeen'] = 'yes';
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/login');
  await visible(page.getByRole('button', { name: 'Login' }));
  const seen = () => page.evaluate(() => document.documentElement.dataset['prepaintSeen']);
  assert.equal(await seen(), undefined, 'no frame on the sign-in page');

  await page.evaluate(() => localStorage.setItem('token', 'no-longer-valid'));
  await page.goto('/devices');
  await waitForPath(page, '/login');
  await visible(page.getByRole('button', { name: 'Login' }));
  assert.equal(await seen(), 'yes', 'the stored token had the frame painted');
  assert.equal(await page.locator('#prepaint').count(), 0, 'the frame is taken down');
});

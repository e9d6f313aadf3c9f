// Web console figures, measured on the built console (apps/web/dist; run `npm run build`
// first) served by the real server, in Debian's Chromium:
//  - gzipped JavaScript the sign-in page loads (issue 3 target: at most 150 KB),
//  - largest contentful paint of /login and /devices (target: under 1.25 s); /devices with a
//    fleet of BENCH_WEB_DEVICES devices (default 3,000), as it is and under 4× CPU throttling
//    (Chrome DevTools Protocol `Emulation.setCPUThrottlingRate`: a slow machine; issue 16),
//  - mounting and scrolling a 5000-row page of the rules table's own rows (checkbox, chips,
//    actions) in the data table (apps/web/bench.html: built here with `vite build --mode bench`
//    into apps/web/dist-bench and served by Vite's preview server; not in the production build).
// Prints figures; asserts nothing about time.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { chromium, type Browser, type Page } from 'playwright-core';
import { preview } from 'vite';
import { startBuiltServer } from './lib/built-server.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const WEB = path.join(ROOT, 'apps/web');
const DIST = path.join(WEB, 'dist');
const SERVER = path.join(ROOT, 'apps/server/dist/main.js');
const ADMIN = { email: 'admin@example.com', password: 'Admin#2026' };
const RUNS = 5;
const LOGIN_BUDGET_KB = 150;
const LCP_TARGET_MS = 1250;
const FLEET = Number(process.env['BENCH_WEB_DEVICES'] ?? 3000);
const THROTTLE = 4;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        resolve(typeof address === 'object' && address !== null ? address.port : 0),
      );
    });
  });
}

/**
 * The built server on a fresh embedded database holding `fleet` devices: one made through the
 * API, the rest copied from it by SQL while the server is stopped (each made through the API
 * would hash a password; PGlite has one connection, which a running server holds).
 */
async function startServer(fleet: number): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'palisade-bench-'));
  let server = await startBuiltServer({
    dataDir,
    admin: ADMIN,
    stderr: 'ignore',
    healthTimeoutMs: 300_000,
  });
  if (fleet > 0) {
    const bearer = await token(server.baseUrl);
    const response = await fetch(`${server.baseUrl}/api/v1/devices/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'sensor-1', city: 'Berlin', password: 'Bench-device-1!' }),
    });
    if (!response.ok) throw new Error(`POST /devices/: HTTP ${response.status}`);
    const first = (await response.json()) as { id: number };
    await server.stop();
    const db = await PGlite.create(path.join(dataDir, 'pglite'));
    await db.query(
      `INSERT INTO devices (org_id, name, city, licensed, password_hash)
       SELECT org_id, 'sensor-' || g, (ARRAY['Berlin', 'Oslo', 'Lima', 'Pune'])[1 + g % 4],
              g % 3 = 0, password_hash
         FROM devices, generate_series(2, $2::int) g WHERE id = $1`,
      [first.id, fleet],
    );
    await db.close();
    server = await startBuiltServer({
      dataDir,
      admin: ADMIN,
      stderr: 'ignore',
      healthTimeoutMs: 300_000,
    });
  }
  return {
    baseUrl: server.baseUrl,
    async stop() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function startBenchPages(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const build = spawnSync('npx', ['vite', 'build', '--mode', 'bench', '--logLevel', 'warn'], {
    cwd: WEB,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the benchmark pages did not build');
  const port = await freePort();
  const server = await preview({
    root: WEB,
    mode: 'bench',
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port, strictPort: true },
  });
  return { baseUrl: `http://127.0.0.1:${port}`, stop: () => server.close() };
}

async function token(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }),
  });
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

// Code that runs in the page is passed as text: this project's Node types have no DOM.
const LCP_IN_PAGE = `new Promise((resolve) => {
  new PerformanceObserver((list) => {
    const entry = list.getEntries().at(-1);
    const element = entry?.element;
    const what = element ? element.tagName.toLowerCase() + ' "' + (element.textContent ?? '').slice(0, 40) + '"' : '';
    resolve({ time: entry?.startTime ?? 0, what });
  }).observe({ type: 'largest-contentful-paint', buffered: true });
})`;

const MOUNT_IN_PAGE = `(() => {
  const mark = performance.getEntriesByName('bench-table-mounted')[0];
  const script = performance.getEntriesByType('resource').find((e) => e.name.includes('bench-table'));
  return (mark?.startTime ?? 0) - (script?.responseEnd ?? 0);
})()`;

const SCROLL_IN_PAGE = `(async () => {
  const scroller = document.querySelector('table[aria-label="Table benchmark"]').parentElement;
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const step = scroller.clientHeight / 2;
  let last = await frame();
  const started = last;
  let worstFrame = 0, maxRows = 0, frames = 0;
  while (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1) {
    scroller.scrollTop += step;
    const now = await frame();
    worstFrame = Math.max(worstFrame, now - last);
    last = now;
    frames += 1;
    maxRows = Math.max(maxRows, scroller.querySelectorAll('tbody tr[data-index]').length);
  }
  return { total: last - started, worstFrame, maxRows, frames };
})()`;

interface ScrollFigures {
  total: number;
  worstFrame: number;
  maxRows: number;
  frames: number;
}

/** Largest contentful paint so far (ms from navigation start) and the element painted. */
function readLcp(page: Page): Promise<{ time: number; what: string }> {
  return page.evaluate<{ time: number; what: string }>(LCP_IN_PAGE);
}

async function loginScripts(browser: Browser, baseUrl: string) {
  const context = await browser.newContext({ baseURL: baseUrl });
  const page = await context.newPage();
  const scripts = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
  });
  await page.goto('/login', { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Login' }).waitFor();
  await context.close();
  let gzipped = 0;
  let brotli = 0;
  for (const script of scripts) {
    const file = path.join(DIST, script);
    gzipped += gzipSync(readFileSync(file)).length;
    // As served: the build's precompressed sibling (small files have none and go as they are).
    brotli += existsSync(`${file}.br`) ? statSync(`${file}.br`).size : statSync(file).size;
  }
  return { files: scripts.size, gzipped, brotli };
}

async function lcp(
  browser: Browser,
  baseUrl: string,
  route: string,
  ready: string,
  options: { bearer?: string; throttle?: number; row?: string } = {},
) {
  const { bearer, throttle, row } = options;
  const values: number[] = [];
  const elements = new Set<string>();
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: { width: 1280, height: 800 },
    });
    if (bearer !== undefined) {
      await context.addInitScript(`localStorage.setItem('token', ${JSON.stringify(bearer)})`);
    }
    const page = await context.newPage();
    if (throttle !== undefined) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    }
    await page.goto(route);
    await page.getByRole('heading', { name: ready }).first().waitFor();
    // A list page has painted what it shows once its first row is there.
    if (row !== undefined) await page.getByText(row, { exact: true }).first().waitFor();
    await page.waitForTimeout(300);
    const { time, what } = await readLcp(page);
    values.push(time);
    elements.add(what);
    await context.close();
  }
  if (process.env['BENCH_WEB_DEBUG'])
    console.log(`${route}: ${values.map(ms).join(', ')}; ${[...elements].join(', ')}`);
  return median(values);
}

async function table(browser: Browser, pageUrl: string) {
  const mounts: number[] = [];
  const scrolls: ScrollFigures[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error on ${pageUrl}: ${error.message}`));
    await page.goto(pageUrl);
    await page
      .getByRole('table', { name: 'Table benchmark' })
      .getByRole('cell', { name: 'ET SAMPLE rule number 1', exact: true })
      .waitFor();
    mounts.push(await page.evaluate<number>(MOUNT_IN_PAGE));
    scrolls.push(await page.evaluate<ScrollFigures>(SCROLL_IN_PAGE));
    await context.close();
  }
  const best = scrolls.sort((a, b) => a.total - b.total)[Math.floor(scrolls.length / 2)];
  return { mount: median(mounts), scroll: best };
}

async function devicesFigures(browser: Browser, baseUrl: string, bearer: string) {
  const row = FLEET > 0 ? 'sensor-1' : undefined;
  const devicesLcp = await lcp(browser, baseUrl, '/devices', 'Devices', { bearer, row });
  const throttledLcp = await lcp(browser, baseUrl, '/devices', 'Devices', {
    bearer,
    row,
    throttle: THROTTLE,
  });
  console.log(
    `/devices (${FLEET} devices) largest contentful paint: ${ms(devicesLcp)} median of ${RUNS}; ` +
      `under ${THROTTLE}× CPU throttling ${ms(throttledLcp)} (target < ${LCP_TARGET_MS} ms: ` +
      `${throttledLcp < LCP_TARGET_MS ? 'met' : 'NOT met'}, ${(throttledLcp / LCP_TARGET_MS).toFixed(2)}× target, ` +
      `${(throttledLcp / devicesLcp).toFixed(1)}× unthrottled)`,
  );
}

async function main() {
  if (!existsSync(path.join(DIST, 'index.html')) || !existsSync(SERVER)) {
    console.error('build first: npm run build (needs apps/web/dist and apps/server/dist)');
    process.exit(1);
  }
  const server = await startServer(FLEET);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--headless'],
  });
  const only = process.env['BENCH_WEB_ONLY'];
  try {
    if (only === 'devices') {
      const bearer = await token(server.baseUrl);
      await devicesFigures(browser, server.baseUrl, bearer);
      return;
    }
    const login = await loginScripts(browser, server.baseUrl);
    console.log(
      `/login script: ${kb(login.gzipped)} gzipped in ${login.files} files (budget ${LOGIN_BUDGET_KB} KB: ${
        login.gzipped <= LOGIN_BUDGET_KB * 1024 ? 'within' : 'OVER'
      }); ${kb(login.brotli)} as served with brotli`,
    );
    const loginLcp = await lcp(browser, server.baseUrl, '/login', 'Sign in');
    console.log(
      `/login largest contentful paint: ${ms(loginLcp)} median of ${RUNS} (target < ${LCP_TARGET_MS} ms)`,
    );
    await devicesFigures(browser, server.baseUrl, await token(server.baseUrl));
    const benchPages = await startBenchPages();
    const { mount, scroll } = await table(browser, `${benchPages.baseUrl}/bench.html`).finally(() =>
      benchPages.stop(),
    );
    console.log(
      `5000-row table: mounted ${ms(mount)} after its script arrived (median of ${RUNS})`,
    );
    if (scroll !== undefined) {
      console.log(
        `5000-row table: scrolled top to bottom in ${ms(scroll.total)} over ${scroll.frames} frames (mean ${ms(scroll.total / Math.max(1, scroll.frames))} a frame), worst frame ${ms(
          scroll.worstFrame,
        )}, at most ${scroll.maxRows} rows in the DOM`,
      );
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();

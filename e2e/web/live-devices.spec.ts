/* global document, window, MutationObserver -- used in code that runs in the page */
// Issue 19 item 7, the console keeps up: a simulated fleet heartbeats once a second; one of its
// devices reports that it applied its versions, and the Devices list, Monitoring, the Home
// dashboard and the device's own page each show it (Update Pending gone, the applied version
// shown) within a second of the report, measured in the page from just before the report to
// the DOM change.
import type { Page, Request } from '@playwright/test';
import { callApi } from '../lib/api.ts';
import { ADMIN } from '../lib/env.ts';
import { assert, signIn, visible } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

const LATENCY_LIMIT_MS = 1000;
const FLEET = 6;

const call = callApi;

/**
 * Devices that behave as agents do: each beats once a second with the versions it applied;
 * `apply` reports the console's versions applied (POST /agent/applied), after which its beats
 * carry them. A device's beats and reports are sent one after the other, as an agent's are.
 */
/** A device of the fleet: its agent token, the versions it applied, its queue of reports. */
interface FleetDevice {
  id: number;
  name: string;
  token: string;
  local: { config_version: number | null; policy_version: number | null };
  queue: Promise<unknown>;
}

async function startFleet(baseUrl: string, token: string, prefix: string, count: number) {
  const password = 'sensor-secret-2026';
  const devices: FleetDevice[] = [];
  for (let i = 0; i < count; i += 1) {
    const created = await call(baseUrl, 'POST', 'devices/', token, {
      name: `${prefix}-${i}`,
      password,
    });
    const login = await call(baseUrl, 'POST', 'agent/login', undefined, {
      device_id: created.id,
      password,
    });
    devices.push({
      id: created.id,
      name: created.name,
      token: login.access_token,
      local: { config_version: null, policy_version: null },
      queue: Promise.resolve(),
    });
  }
  const run = (device: FleetDevice, task: () => Promise<unknown>) => {
    const next = device.queue.then(task);
    device.queue = next.catch(() => undefined);
    return next;
  };
  const beat = (device: FleetDevice) =>
    call(baseUrl, 'POST', 'agent/heartbeat', device.token, {
      state: 'running',
      metrics: {
        cpu: Math.round(Math.random() * 50),
        memory_used: 1e9,
        memory_total: 4e9,
        disk_used: 1e10,
        disk_total: 6e10,
        net_in: 1e6,
        net_out: 1e5,
      },
      local: device.local,
      agent_version: '0.3.0',
    });
  let running = true;
  const loops = devices.map(async (device, index) => {
    await new Promise((resolve) => setTimeout(resolve, (index * 1000) / devices.length));
    while (running) {
      await run(device, () => beat(device)).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  });
  return {
    devices,
    /** Reports the console's versions applied; `before` runs just before the report is sent. */
    async apply(device: FleetDevice, before: () => Promise<unknown> = async () => undefined) {
      const remote = await call(baseUrl, 'GET', `devices/${device.id}`, token);
      const versions = {
        config_version: remote.config_version_remote,
        policy_version: remote.policy_version_remote,
      };
      await run(device, async () => {
        await before();
        device.local = versions;
        await call(baseUrl, 'POST', 'agent/applied', device.token, { ...versions, ok: true });
      });
      return versions;
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/**
 * Starts watching the page for `condition(arg)` to hold (checked on every DOM change); answers
 * the page's time at which it first held, once it does.
 */
/** What a watched condition is given: the device's name, or the version to show. */
type Watched = { name?: string; version?: number };
/** A condition on the page's DOM, run in the page (its source is sent there). */
type Condition = (arg: Watched) => boolean;
type Fleet = Awaited<ReturnType<typeof startFleet>>;

async function watch(page: Page, condition: Condition, arg: Watched) {
  await page.evaluate(
    ({ source, arg }) => {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the condition comes as source
      const check = new Function('arg', `return (${source})(arg);`);
      window.__changedAt = undefined;
      const observer = new MutationObserver(() => {
        if (window.__changedAt === undefined && check(arg)) {
          window.__changedAt = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    },
    { source: condition.toString(), arg },
  );
}

/** The report's latency: from just before it is sent to the watched change on the screen. */
async function measure(
  page: Page,
  fleet: Fleet,
  device: FleetDevice,
  condition: Condition,
  arg: Watched,
) {
  await watch(page, condition, arg);
  let sentAt = 0;
  let nodeSent = 0;
  const trace: string[] = [];
  const onRequest = (request: Request) => {
    if (request.url().includes('/api/v1/devices')) trace.push(`req ${Date.now() - nodeSent}`);
  };
  const onDone = (request: Request) => {
    if (request.url().includes('/api/v1/devices')) trace.push(`done ${Date.now() - nodeSent}`);
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  await fleet.apply(device, async () => {
    sentAt = await page.evaluate(() => performance.now());
    nodeSent = Date.now();
  });
  trace.push(`applied ${Date.now() - nodeSent}`);
  await page.waitForFunction(() => window.__changedAt !== undefined, undefined, {
    timeout: 10_000,
  });
  const changedAt = await page.evaluate(() => window.__changedAt);
  page.off('request', onRequest);
  page.off('requestfinished', onDone);
  if (process.env.LIVE_TRACE) console.log(`     trace: ${trace.join(', ')}`);
  if (changedAt === undefined) throw new Error('the watched change was not seen');
  return Math.round(changedAt - sentAt);
}

/** The row (of any list) naming `name` no longer says Update Pending. */
function rowSynced({ name }: Watched) {
  const cell = [...document.querySelectorAll('tr a, tr button')].find(
    (el) => el.textContent?.trim() === name,
  );
  const row = cell?.closest('tr');
  return row !== undefined && row !== null && !row.textContent?.includes('Update Pending');
}

/** The device's versions table shows the applied config version as local. */
function versionShown({ version }: Watched) {
  const header = [...document.querySelectorAll('th')].find(
    (el) => el.textContent?.trim() === 'Config version',
  );
  const cells = header?.closest('tr')?.querySelectorAll('td');
  return cells !== undefined && cells[0]?.textContent?.trim() === String(version);
}

/** Monitoring: the device's row is in sync and its versions table shows the applied version. */
function monitoringSynced({ name, version }: Watched) {
  const cell = [...document.querySelectorAll('tr a, tr button')].find(
    (el) => el.textContent?.trim() === name,
  );
  const row = cell?.closest('tr');
  const header = [...document.querySelectorAll('th')].find(
    (el) => el.textContent?.trim() === 'Config version',
  );
  const cells = header?.closest('tr')?.querySelectorAll('td');
  return (
    row !== undefined &&
    row !== null &&
    !row.textContent?.includes('Update Pending') &&
    cells !== undefined &&
    cells[0]?.textContent?.trim() === String(version)
  );
}

/** Home's "Out of sync" card no longer names the device. */
function leftOutOfSync({ name }: Watched) {
  const card = document.querySelector('[data-testid="fleet-pending"]');
  return card !== null && ![...card.querySelectorAll('a')].some((a) => a.textContent === name);
}

test('live devices: an applied version shows on every screen within 1 s', async ({
  page,
  baseUrl,
  api,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const prefix = `live-${Date.now().toString(36)}`;
  const fleet = await startFleet(baseUrl, token, prefix, FLEET);
  const latencies: Record<string, number> = {};
  try {
    const [listDevice, monitoredDevice, homeDevice, pageDevice, ...rest] = fleet.devices;
    if (!listDevice || !monitoredDevice || !homeDevice || !pageDevice) {
      throw new Error(`a fleet of ${FLEET} has not four devices`);
    }
    // The rest of the fleet is in sync: only the four watched devices are pending.
    for (const device of rest) await fleet.apply(device);

    await signIn(page);
    await page.setViewportSize({ width: 1600, height: 900 });
    const pending = (name: string) =>
      page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

    // The Devices list.
    await page.goto(`/devices?q=${prefix}`);
    await visible(pending(listDevice.name).getByText('Update Pending'));
    latencies.devices = await measure(page, fleet, listDevice, rowSynced, {
      name: listDevice.name,
    });

    // Monitoring, with the device selected: its row and its versions.
    await page.goto(`/monitoring?device=${monitoredDevice.id}`);
    await visible(pending(monitoredDevice.name).getByText('Update Pending'));
    await visible(page.getByRole('rowheader', { name: 'Config version' }));
    const remote = await call(baseUrl, 'GET', `devices/${monitoredDevice.id}`, token);
    latencies.monitoring = await measure(page, fleet, monitoredDevice, monitoringSynced, {
      name: monitoredDevice.name,
      version: remote.config_version_remote,
    });

    // The Home dashboard's out-of-sync devices.
    await page.goto('/home');
    await visible(page.getByTestId('fleet-pending').getByRole('link', { name: homeDevice.name }));
    latencies.dashboard = await measure(page, fleet, homeDevice, leftOutOfSync, {
      name: homeDevice.name,
    });

    // The device's own page: its versions table.
    const own = await call(baseUrl, 'GET', `devices/${pageDevice.id}`, token);
    await page.goto(`/devices/${pageDevice.id}`);
    await visible(page.getByRole('rowheader', { name: 'Config version' }));
    latencies.devicePage = await measure(page, fleet, pageDevice, versionShown, {
      version: own.config_version_remote,
    });
  } finally {
    await fleet.stop();
  }
  console.log(`     latencies (ms): ${JSON.stringify(latencies)}`);
  for (const [screen, ms] of Object.entries(latencies)) {
    assert.ok(ms < LATENCY_LIMIT_MS, `${screen}: shown ${ms} ms after the report`);
  }
});

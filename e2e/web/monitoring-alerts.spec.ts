/* global window -- used in code that runs in the page */
// Issue 7, agent → server → screen: a device signs in through the agent protocol, reports
// metrics and replays real alerts from the corpus' eve.json (without the corpus, the project's
// generated sample alerts); with Monitoring and Alerts open, both show them without a reload.
// Then the filters, the grouped view, the detail with its rule and event, and tuning from the
// alert, which changes the policy the device gets.
import type { Locator, Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { corpusPath, corpusPresent } from '../../testing/corpus.mjs';
import { sampleAlerts } from '../../testing/samples.mjs';
import { callApi } from '../lib/api.ts';
import { ADMIN, ROOT } from '../lib/env.ts';
import {
  assert,
  openSignedIn,
  uniqueEmail,
  visible,
  waitForCount,
  waitForNotice,
  waitForPath,
} from '../lib/ui.ts';
import { test } from '../fixtures.ts';

const EVE = 'eve/Menna-Islam__Zeus__eve.json';
const EVE_FILE = corpusPresent(EVE) ? corpusPath(EVE) : null;
/** How many of the file's alert events the device replays. */
const REPLAYED = 40;
const LIVE_TIMEOUT = 15_000;

/** The file's first alert events, read at test time; without the corpus, generated ones. */
async function corpusAlerts(count: number) {
  if (EVE_FILE === null) return sampleAlerts({ count });
  const text = await readFile(EVE_FILE, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line))
    .filter((event) => event.event_type === 'alert' && event.alert?.signature_id)
    .slice(0, count);
}

/** JSON calls the arrangement needs (the shared api client only knows a few). */
const rest = (baseUrl: string) => (method: string, route: string, token?: string, body?: unknown) =>
  callApi(baseUrl, method, route, token, body);

const metrics = (cpu: number) => ({
  cpu,
  memory_used: 1_600_000_000 + cpu * 10_000_000,
  memory_total: 4_000_000_000,
  disk_used: 12_000_000_000,
  disk_total: 64_000_000_000,
  net_in: 250_000 + cpu * 1000,
  net_out: 40_000,
});

/** callApi with the server's address given. */
type Call = ReturnType<typeof rest>;

/** A device that reports like the agent does: sign-in, heartbeats, alert batches. */
async function sensor(call: Call, admin: string, name: string) {
  const password = 'sensor-secret-2026';
  const device = await call('POST', 'devices/', admin, { name, password, city: 'Lab' });
  const login = await call('POST', 'agent/login', undefined, {
    device_id: device.id,
    password,
    agent_version: 'test',
  });
  const token = login.access_token;
  let seq = 0;
  let logSeq = 0;
  return {
    device,
    heartbeat: (cpu: number) =>
      call('POST', 'agent/heartbeat', token, {
        state: 'running',
        metrics: metrics(cpu),
        local: { config_version: null, policy_version: null },
        agent_version: 'test',
      }),
    alerts: (events: unknown[]) => {
      seq += 1;
      return call('POST', 'agent/alerts', token, { seq, events });
    },
    logs: (lines: unknown[]) => {
      logSeq += 1;
      return call('POST', 'agent/logs', token, { seq: logSeq, lines });
    },
  };
}

/** A screenshot of any page (the harness' `shot` takes the first one's viewport). */
const snap = (page: Page, name: string, fullPage = false) =>
  page.screenshot({ path: path.join(ROOT, 'test-results', `${name}.png`), fullPage });

const noReloadMarker = (page: Page) =>
  page.evaluate(() => {
    window.__sameDocument = true;
  });
const stillSameDocument = async (page: Page) =>
  assert.equal(await page.evaluate(() => window.__sameDocument), true, 'the page never reloaded');

test('monitoring+alerts: a replayed eve.json alert appears live on both screens; filters, groups, detail; suppress source and disable rule change the policy', async ({
  page,
  context,
  baseUrl,
  api,
}) => {
  const call = rest(baseUrl);
  const events = await corpusAlerts(REPLAYED);
  assert.equal(events.length, REPLAYED, `alert events in ${EVE_FILE ?? 'the sample'}`);
  // A UDP signature: the TCP filter below must then find none of its alerts.
  const target =
    events.find((e) => e.alert.signature.startsWith('Zeus')) ??
    events.find((e) => e.proto === 'UDP' && /^[\w .-]+$/.test(e.alert.signature));
  const sid = target.alert.signature_id;
  const signature = target.alert.signature;
  const ofTarget = events.filter((e) => e.alert.signature_id === sid);
  const fromSource = ofTarget.filter((e) => e.src_ip === target.src_ip);

  // A policy holding the rule of that signature, assigned to a new device.
  const token = await api.token(ADMIN.email, ADMIN.password);
  const group = await call('POST', 'groups/', token, { name: `zeus-${Date.now()}` });
  await call('POST', 'rules/', token, {
    text: `alert udp any any -> any any (msg:"${signature}"; sid:${sid}; rev:${target.alert.rev ?? 1};)`,
    group_ids: [group.id],
  });
  const policy = await call('POST', 'policies/', token, {
    name: `Zeus watch ${Date.now()}`,
    group_ids: [group.id],
  });
  const name = `sensor-${Date.now().toString(36)}`;
  const agent = await sensor(call, token, name);
  await call('PUT', `devices/${agent.device.id}`, token, { policy_id: policy.id });
  await agent.heartbeat(12.5);

  // Monitoring in one tab, Alerts in another, both before any alert exists.
  await openSignedIn(page, `/monitoring?device=${agent.device.id}`);
  const detail = page.getByTestId('device-detail');
  await visible(detail);
  await visible(detail.getByRole('heading', { name }));
  await visible(detail.getByTestId('device-state').getByText('Running'));
  await visible(page.getByText('No alerts from this device.'));
  const alertsPage = await context.newPage();
  await alertsPage.goto('/alerts');
  await visible(alertsPage.getByText('No alerts match these filters.'));
  await noReloadMarker(page);
  await noReloadMarker(alertsPage);

  // The agent reports: a second metric sample and the replayed alerts.
  await agent.heartbeat(37.5);
  const sent = performance.now();
  const ack = await agent.alerts(events);
  assert.equal(ack.ack, 1);

  // Both screens, at once: how long from the agent's batch to the alert on screen.
  const deviceAlerts = page.getByRole('table', { name: 'Last 100 alerts' });
  const list = alertsPage.getByRole('table', { name: 'Alerts' });
  const shownAfter = (locator: Locator) =>
    visible(locator, LIVE_TIMEOUT).then(() => Math.round(performance.now() - sent));
  const [onMonitoring, onAlerts] = await Promise.all([
    shownAfter(deviceAlerts.getByRole('cell', { name: signature })),
    shownAfter(list.getByRole('button', { name: signature })),
  ]);
  console.log(`     live: Monitoring ${onMonitoring} ms, Alerts ${onAlerts} ms after the batch`);
  await visible(detail.getByText('38%'), LIVE_TIMEOUT);
  await visible(page.getByTestId('chart-cpu').locator('canvas'));
  await snap(page, 'monitoring', true);
  await visible(
    alertsPage.getByTestId('alerts-total').getByText(`Alerts: ${REPLAYED}`, { exact: true }),
  );
  await visible(alertsPage.getByTestId('alerts-histogram').locator('canvas'));
  await snap(alertsPage, 'alerts');
  await stillSameDocument(page);
  await stillSameDocument(alertsPage);

  // Filters narrow the list: the signature by sid, then its source and port, then none.
  // Menu options are chosen with the keyboard: this run keeps two tabs busy with live data,
  // and a click's wait for the option to stop moving (animation frames) sometimes starves.
  await alertsPage.bringToFront();
  const filters = alertsPage.getByRole('form', { name: 'Alert filters' });
  await filters.getByLabel('Signature (SID or text)').fill(String(sid));
  await filters.getByRole('button', { name: 'Apply' }).click();
  const total = alertsPage.getByTestId('alerts-total');
  await visible(total.getByText(`Alerts: ${ofTarget.length}`, { exact: true }));
  // The signature id is the pivot beside each alert's message.
  const sids = await list.locator('tbody tr [data-pivot="sid"]').allTextContents();
  assert.ok(
    sids.length === ofTarget.length && sids.every((s) => s === String(sid)),
    `only sid ${sid}: ${sids.join(',')}`,
  );
  await filters.getByLabel('Source address').fill(target.src_ip);
  await filters.getByLabel('Destination port').fill(String(target.dest_port));
  await filters.getByRole('button', { name: 'Apply' }).click();
  const narrowed = fromSource.filter((e) => e.dest_port === target.dest_port).length;
  await visible(total.getByText(`Alerts: ${narrowed}`, { exact: true }));
  const protocol = filters.getByRole('combobox', { name: 'Protocol' });
  await protocol.click();
  await alertsPage.getByRole('option', { name: 'TCP', exact: true }).click();
  await visible(protocol.getByText('TCP', { exact: true }));
  await filters.getByRole('button', { name: 'Apply' }).click();
  await visible(alertsPage.getByText('No alerts match these filters.'));
  await filters.getByLabel('Destination port').fill('http');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await visible(filters.getByText('Not valid'));
  await snap(alertsPage, 'alerts-filters');
  await filters.getByRole('button', { name: 'Clear' }).click();
  await visible(total.getByText(`Alerts: ${REPLAYED}`, { exact: true }));

  // Deeper pages go by keyset: the second page asks for what comes before the first.
  const asked: URL[] = [];
  alertsPage.on('request', (request) => {
    if (/\/api\/v1\/alerts\/\?/.test(request.url())) asked.push(new URL(request.url()));
  });
  const footer = alertsPage.locator('.MuiTablePagination-root');
  await footer.getByRole('combobox').click();
  await alertsPage.getByRole('option', { name: '25', exact: true }).press('Enter');
  await visible(footer.getByText(`1–25 of ${REPLAYED}`));
  await footer.getByRole('button', { name: 'Next page' }).click();
  await visible(footer.getByText(`26–${REPLAYED} of ${REPLAYED}`));
  // The rows are drawn just after the footer (an interruptible render).
  await waitForCount(list.locator('tbody tr.data-row'), REPLAYED - 25);
  const deep = asked.at(-1);
  if (deep === undefined) throw new Error('no alerts page was asked for');
  assert.match(deep.searchParams.get('before') ?? '', /^\d+:\d+$/);
  assert.equal(deep.searchParams.get('offset'), null, 'no offset on a deep page');
  assert.ok(await footer.getByRole('button', { name: 'Next page' }).isDisabled());
  await footer.getByRole('button', { name: 'Previous page' }).click();
  await visible(footer.getByText(`1–25 of ${REPLAYED}`));

  // The grouped view counts the signature.
  await alertsPage.getByRole('tab', { name: 'By signature' }).click();
  const groups = alertsPage.getByRole('table', { name: 'Alerts by signature' });
  const groupRow = groups.getByRole('row', { name: new RegExp(`1:${sid}\\b`) });
  await visible(groupRow);
  assert.match(
    (await groupRow.textContent()) ?? '',
    new RegExp(`${signature}.*${ofTarget.length}`),
  );
  await snap(alertsPage, 'alerts-groups');
  await groupRow.getByRole('button', { name: `Show the alerts of signature ${sid}` }).click();
  await visible(total.getByText(`Alerts: ${ofTarget.length}`, { exact: true }));

  // The detail shows the full event and the rule that fired.
  await list.getByRole('button', { name: signature }).first().click();
  const drawer = alertsPage.getByRole('dialog', { name: 'Alert' });
  await visible(drawer.getByTestId('alert-detail'));
  assert.match(
    (await drawer.getByTestId('alert-rule').textContent()) ?? '',
    new RegExp(`sid:${sid};`),
  );
  const eventText = (await drawer.getByTestId('alert-event').textContent()) ?? '';
  const shown = JSON.parse(eventText);
  assert.equal(shown.alert.signature_id, sid);
  assert.equal(shown.event_type, 'alert');
  // The time to the microsecond the sensor wrote.
  const micros = /\.(\d{6})/.exec(String(shown.timestamp))?.[1];
  if (micros !== undefined)
    assert.match(
      (await drawer.getByTestId('alert-detail').textContent()) ?? '',
      new RegExp(`\\.${micros}\\b`),
    );
  await snap(alertsPage, 'alert-detail');

  // Tuning: suppress the source in the device's policy; the policy version moves.
  const before = await call('GET', `policies/${policy.id}/render`, token);
  assert.ok(!before.thresholds.includes(`sig_id ${sid}`));
  await drawer.getByRole('button', { name: 'Suppress source' }).click();
  // Reviewed first, as every change that reaches devices: this one reaches the device.
  const confirm = alertsPage.getByRole('dialog', { name: 'Suppress this source?' });
  const reach = confirm.getByTestId('change-review-reach');
  await visible(reach);
  assert.match((await reach.textContent()) ?? '', /^Devices this change reaches: [1-9]/);
  await confirm.getByRole('button', { name: 'Suppress source' }).click();
  const shownSource = JSON.parse(eventText).src_ip;
  await waitForNotice(alertsPage, `from ${shownSource} suppressed in policy`);
  const after = await call('GET', `policies/${policy.id}/render`, token);
  assert.ok(after.version > before.version, `version ${before.version} → ${after.version}`);
  assert.match(
    after.thresholds,
    new RegExp(`suppress gen_id 1, sig_id ${sid}, track by_src, ip ${shownSource}`),
  );
  // The device's next heartbeat learns the new version; Monitoring shows it without a reload.
  await agent.heartbeat(20);
  await page
    .getByRole('table', { name: 'Versions' })
    .getByRole('row', { name: new RegExp(`Policy version.*${after.version}$`) })
    .waitFor({ timeout: LIVE_TIMEOUT });

  // Acknowledge the alert from its detail; the list shows it.
  await drawer.getByRole('button', { name: 'Acknowledge' }).click();
  await waitForNotice(alertsPage, 'Alerts acknowledged');
  await visible(drawer.getByRole('button', { name: 'Reopen' }));

  // Tuning: disable the rule; the rendered rules lose it and the version moves again.
  assert.match(after.rules, new RegExp(`sid:${sid};`));
  await drawer.getByRole('button', { name: 'Disable rule' }).click();
  await alertsPage
    .getByRole('dialog', { name: 'Disable this rule?' })
    .getByRole('button', { name: 'Disable rule' })
    .click();
  await waitForNotice(alertsPage, `Rule 1:${sid} disabled in policy`);
  const disabled = await call('GET', `policies/${policy.id}/render`, token);
  assert.ok(disabled.version > after.version, `version ${after.version} → ${disabled.version}`);
  assert.doesNotMatch(disabled.rules, new RegExp(`sid:${sid};`));
  // Disabling it again changes nothing, and the console says why in its own words.
  // Refused by its preview already: no review, the reason at once.
  await drawer.getByRole('button', { name: 'Disable rule' }).click();
  await waitForNotice(alertsPage, `Rule ${sid} is already disabled in the policy of ${name}.`);
  assert.equal(await alertsPage.getByRole('dialog', { name: 'Disable this rule?' }).count(), 0);
  const again = await call('GET', `policies/${policy.id}/render`, token);
  assert.equal(again.version, disabled.version);
  await stillSameDocument(alertsPage);

  // From Monitoring to that device's alerts: the filter comes in the URL.
  await page.bringToFront();
  await page.getByRole('link', { name: 'All alerts of this device' }).click();
  await waitForPath(page, '/alerts');
  assert.equal(new URL(page.url()).searchParams.get('device'), String(agent.device.id));
  await visible(page.getByTestId('alerts-total').getByText(`Alerts: ${REPLAYED}`, { exact: true }));
  await visible(page.getByRole('form', { name: 'Alert filters' }).getByText(name));
});

test('monitoring+alerts: a Viewer reads alerts without acknowledge or tuning; Arabic right to left', async ({
  page,
  baseUrl,
  api,
  shot,
}) => {
  const call = rest(baseUrl);
  const token = await api.token(ADMIN.email, ADMIN.password);
  const email = uniqueEmail('viewer');
  await api.createUser(token, { email, password: 'Viewer#2026', role: 'Viewer' });
  const agent = await sensor(call, token, `viewer-sensor-${Date.now().toString(36)}`);
  await agent.heartbeat(5);
  await agent.heartbeat(9);
  await agent.alerts(await corpusAlerts(5));
  const logLine = 'suricata: rules reloaded in 2.1 s';
  await agent.logs([{ time: new Date().toISOString(), level: 'warn', msg: logLine }]);

  await openSignedIn(page, '/alerts', { email, password: 'Viewer#2026' });
  const list = page.getByRole('table', { name: 'Alerts' });
  await visible(list.getByRole('row').nth(1));
  assert.equal(await page.getByRole('button', { name: /^Acknowledge/ }).count(), 0);
  assert.equal(await page.getByRole('checkbox', { name: /^Select alert/ }).count(), 0);
  await list.getByTestId('alert-open').first().click();
  const drawer = page.getByRole('dialog', { name: 'Alert' });
  await visible(drawer.getByTestId('alert-event'));
  assert.equal(await drawer.getByRole('button', { name: 'Suppress source' }).count(), 0);
  assert.equal(await drawer.getByRole('button', { name: 'Disable rule' }).count(), 0);
  await drawer.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitem', { name: 'العربية' }).click();
  await visible(page.getByRole('heading', { level: 1, name: 'التنبيهات' }));
  await visible(page.getByRole('table', { name: 'التنبيهات' }).getByRole('row').nth(1));
  await shot('alerts-ar');
  await page.goto(`/monitoring?device=${agent.device.id}`);
  await visible(page.getByTestId('device-detail'));
  await visible(page.getByText('متصل').first());
  await visible(page.getByTestId('chart-cpu').locator('canvas'));
  await shot('monitoring-ar');
  await page.getByRole('tab', { name: 'سجل الوكيل' }).click();
  await visible(page.getByRole('table', { name: 'سجل الوكيل' }).getByText(logLine));
  await snap(page, 'monitoring-log-ar', true);
});

/* global document, window, getComputedStyle -- used in code that runs in the page */
// Issue 19, items 1 and 2: a dense list (25+ rows at 1440×900), pivots that filter or exclude
// with one click and live in the URL, and a drawer with the payload as hex and ASCII and the
// alerts of the same flow. Item 3: a star, a comment and a saved view.
import { type apiClient, callApi, eveTime, reportingDevice } from '../lib/api.ts';
import { ADMIN } from '../lib/env.ts';
import { assert, openSignedIn, visible } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

const ROWS = 60;
const FLOW = '987654321012345';
const PAYLOAD = Buffer.from('GET /evil HTTP/1.1\r\nHost: c2.example\r\n\r\n').toString('base64');

const event = (i: number, extra = {}) => ({
  timestamp: eveTime(ROWS - i),
  event_type: 'alert',
  flow_id: 1000 + i,
  src_ip: i % 2 === 0 ? '10.9.0.2' : '10.9.0.3',
  src_port: 40000 + i,
  dest_ip: '198.51.100.7',
  dest_port: i % 3 === 0 ? 53 : 443,
  proto: i % 3 === 0 ? 'UDP' : 'TCP',
  alert: {
    action: 'allowed',
    gid: 1,
    signature_id: 3_000_000 + (i % 5),
    rev: 1,
    signature: `TRIAGE test signature ${i % 5} with a long message that an ellipsis cuts short`,
    category: 'Misc activity',
    severity: (i % 3) + 1,
  },
  ...extra,
});

async function arrange(baseUrl: string, api: ReturnType<typeof apiClient>) {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const password = 'sensor-secret-2026';
  const sensor = await reportingDevice(baseUrl, token, {
    name: `triage-${Date.now().toString(36)}`,
    password,
  });
  const events = Array.from({ length: ROWS }, (_, i) => event(i));
  // The evidence: one alert with its payload, and a second alert of the same flow.
  events.push(
    event(ROWS, {
      flow_id: Number(FLOW),
      src_ip: '10.9.0.2',
      proto: 'TCP',
      payload: PAYLOAD,
      payload_printable: 'GET /evil HTTP/1.1..Host: c2.example....',
      alert: { ...event(0).alert, signature_id: 3_100_000, signature: 'TRIAGE payload alert' },
    }),
    event(ROWS - 1, {
      flow_id: Number(FLOW),
      src_ip: '10.9.0.2',
      proto: 'TCP',
      alert: { ...event(0).alert, signature_id: 3_100_001, signature: 'TRIAGE same flow' },
    }),
  );
  await sensor.sendAlerts(events);
  return { total: events.length, deviceId: sensor.device.id };
}

test('alert triage: 25+ rows at 1440×900, a pivot filters and excludes in the URL, drawer shows payload hex/ASCII and the same flow', async ({
  page,
  baseUrl,
  api,
  shot,
}) => {
  // The server is shared with the other specs: the list is this device's alerts only.
  const { total, deviceId } = await arrange(baseUrl, api);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openSignedIn(page, `/alerts?device=${deviceId}`);
  const list = page.getByRole('table', { name: 'Alerts' });
  await visible(page.getByTestId('alerts-total').getByText(`Alerts: ${total}`, { exact: true }));

  // One line per alert: with the list at the top of the window, 25 rows and more show.
  await list.evaluate((table) => table.closest('.MuiPaper-root')?.scrollIntoView(true));
  const shown = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('table[aria-label="Alerts"] tr.data-row')];
    const heights = new Set(rows.map((r) => r.getBoundingClientRect().height));
    const inView = rows.filter((r) => {
      const box = r.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
    return { inView: inView.length, heights: [...heights] };
  });
  console.log(
    `     rows in view at 1440×900: ${shown.inView} (heights ${shown.heights.join(',')})`,
  );
  assert.ok(shown.inView >= 25, `${shown.inView} rows in view`);
  assert.deepEqual(shown.heights, [28], 'every row one line high');
  await shot('alerts-triage-list');
  // The list fits its box: no sideways scroll, no time cut short. At 1440 px beside the
  // open navigation every column shows; at 1280 px the protocol and the device give way.
  const fit = () =>
    page.evaluate(() => {
      const table = document.querySelector('table[aria-label="Alerts"]')!;
      const box = table.closest('.MuiTableContainer-root')!;
      const shown = [...table.querySelectorAll('thead th')]
        .filter((th) => getComputedStyle(th).display !== 'none')
        .map((th) => th.textContent);
      const times = [...table.querySelectorAll('tr.data-row')].map(
        (row) => (row as HTMLTableRowElement).cells[2]!,
      );
      return {
        sideways: box.scrollWidth - box.clientWidth,
        shown,
        timesCut: times.filter((cell) => cell.scrollWidth > cell.clientWidth).length,
      };
    });
  const wide = await fit();
  assert.deepEqual(wide, {
    sideways: 0,
    shown: ['', '★', 'Time', 'Device', 'Severity', 'Signature', 'Source', 'Destination'].concat([
      'Protocol',
      'State',
    ]),
    timesCut: 0,
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForFunction(
    () =>
      !document.querySelector<HTMLElement>('table[aria-label="Alerts"] th.data-col-device')
        ?.offsetWidth,
  );
  const narrow = await fit();
  assert.deepEqual(narrow, {
    sideways: 0,
    shown: ['', '★', 'Time', 'Severity', 'Signature', 'Source', 'Destination', 'State'],
    timesCut: 0,
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  // The long signature is cut, with its full text on hover.
  const long = list.getByTestId('alert-open').filter({ hasText: 'ellipsis' }).first();
  assert.match((await long.getAttribute('title')) ?? '', /an ellipsis cuts short$/);

  // A click on a source address shows only its alerts, and the URL carries the filter.
  await list.getByRole('button', { name: '10.9.0.2', exact: true }).first().click();
  await page.waitForURL((url) => url.searchParams.get('src_ip') === '10.9.0.2');
  const fromSource = ROWS / 2 + 2; // the even ones and the two evidence alerts
  await visible(
    page.getByTestId('alerts-total').getByText(`Alerts: ${fromSource}`, { exact: true }),
  );
  // Shift+click on a protocol leaves it out.
  await list
    .getByRole('button', { name: 'UDP', exact: true })
    .first()
    .click({ modifiers: ['Shift'] });
  await page.waitForURL((url) => url.searchParams.get('not_proto') === 'UDP');
  await visible(page.getByTestId('alerts-exclusions').getByText('Protocol ≠ UDP'));
  const udpEven = Array.from({ length: ROWS }, (_, i) => i).filter(
    (i) => i % 2 === 0 && i % 3 === 0,
  ).length;
  await visible(
    page.getByTestId('alerts-total').getByText(`Alerts: ${fromSource - udpEven}`, { exact: true }),
  );
  // The URL alone gives the same list (a link, a reload).
  await page.reload();
  await visible(
    page.getByTestId('alerts-total').getByText(`Alerts: ${fromSource - udpEven}`, { exact: true }),
  );

  // The drawer: the payload as hex and ASCII side by side, and the alert of the same flow.
  await list.getByRole('button', { name: 'TRIAGE payload alert' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Alert' });
  const hex = drawer.getByTestId('alert-payload-hex');
  await visible(hex);
  const dump = (await hex.textContent()) ?? '';
  assert.match(
    dump,
    /^00000000 {2}47 45 54 20 2f 65 76 69 {2}6c 20 48 54 54 50 2f 31 {2}GET \/evil HTTP\/1/,
  );
  await visible(drawer.getByTestId('alert-related-flow').getByText(/TRIAGE same flow/));
  await visible(drawer.getByTestId('alert-flow').getByText(FLOW));
  await shot('alerts-triage-drawer');
  // A related alert opens in the drawer.
  await drawer.getByTestId('alert-related-flow').getByRole('button').first().click();
  await visible(drawer.getByTestId('alert-detail-msg').getByText('TRIAGE same flow'));
});

test('alert triage: star an alert, filter on the star, save it as a view and apply it, comment, correct and delete it', async ({
  page,
  baseUrl,
  api,
}) => {
  const { total, deviceId } = await arrange(baseUrl, api);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openSignedIn(page, `/alerts?device=${deviceId}`);
  const list = page.getByRole('table', { name: 'Alerts' });
  await visible(page.getByTestId('alerts-total').getByText(`Alerts: ${total}`, { exact: true }));

  // The star in the row: pressed once the server has it.
  const row = list.locator('tr.data-row').filter({ hasText: 'TRIAGE payload alert' });
  const star = row.getByRole('button', { name: /^Star alert \d+$/ });
  assert.equal(await star.getAttribute('aria-pressed'), 'false');
  await star.click();
  await visible(row.locator('button[aria-pressed="true"]'));

  // The Star filter, in the URL like the others.
  await page.getByRole('combobox', { name: 'Star', exact: true }).click();
  await page.getByRole('option', { name: 'Starred', exact: true }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL((url) => url.searchParams.get('starred') === 'true');
  await visible(page.getByTestId('alerts-total').getByText('Alerts: 1', { exact: true }));

  // Saved as a view, then applied from a page with no filters.
  const name = `Starred ${deviceId}`;
  await page.getByRole('button', { name: 'Views' }).click();
  await page.getByRole('menuitem', { name: 'Save view…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save the current filters as a view' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await visible(page.getByRole('button', { name: `View: ${name}` }));
  await page.goto('/alerts');
  await page.getByRole('button', { name: 'Views' }).click();
  await page.getByRole('menuitem', { name }).click();
  await page.waitForURL(
    (url) =>
      url.searchParams.get('starred') === 'true' &&
      url.searchParams.get('device') === String(deviceId),
  );
  await visible(page.getByTestId('alerts-total').getByText('Alerts: 1', { exact: true }));

  // A comment on the alert, shown in its drawer with its author.
  await list.getByRole('button', { name: 'TRIAGE payload alert' }).click();
  const drawer = page.getByRole('dialog', { name: 'Alert' });
  await visible(drawer.getByRole('button', { name: /^Star alert/, pressed: true }));
  await drawer.getByLabel('Add a comment').fill('C2 beacon, ticket 4711');
  await drawer.getByRole('button', { name: 'Comment', exact: true }).click();
  const comment = drawer.getByTestId('alert-comment');
  await visible(comment.getByText('C2 beacon, ticket 4711'));
  await visible(comment.getByText(new RegExp(`^${ADMIN.email}, `)));

  // Corrected by its author, marked edited; then deleted after the question.
  await comment.getByRole('button', { name: 'Edit comment' }).click();
  await comment.getByRole('textbox', { name: 'Comment' }).fill('C2 beacon, ticket 4712');
  await comment.getByRole('button', { name: 'Save' }).click();
  await visible(comment.getByText('C2 beacon, ticket 4712'));
  await visible(comment.getByText('edited', { exact: false }));
  await comment.getByRole('button', { name: 'Delete comment' }).click();
  await page
    .getByRole('dialog', { name: 'Delete this comment?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await visible(drawer.getByText('No comments yet.'));
});

test('alert triage: suppressing a source shows first what it would have removed, per signature and device', async ({
  page,
  baseUrl,
  api,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const stamp = Date.now().toString(36);
  const policy = await callApi(baseUrl, 'POST', 'policies/', token, { name: `BT ${stamp}` });
  const sensor = await reportingDevice(baseUrl, token, {
    name: `backtest-${stamp}`,
    password: 'sensor-secret-2026',
    policy_id: policy.id,
  });
  const alert = (i: number, sid: number, src: string, signature: string) => ({
    timestamp: eveTime(600 - i),
    event_type: 'alert',
    src_ip: src,
    src_port: 40000 + i,
    dest_ip: '198.51.100.7',
    dest_port: 443,
    proto: 'TCP',
    alert: { action: 'allowed', gid: 1, signature_id: sid, rev: 1, signature, severity: 2 },
  });
  // Six of the signature from the source, four from another, five of another signature.
  await sensor.sendAlerts([
    ...Array.from({ length: 6 }, (_, i) => alert(i, 3_200_001, '10.9.0.2', 'BACKTEST target')),
    ...Array.from({ length: 4 }, (_, i) => alert(10 + i, 3_200_001, '10.9.0.3', 'BACKTEST target')),
    ...Array.from({ length: 5 }, (_, i) => alert(20 + i, 3_200_002, '10.9.0.2', 'BACKTEST other')),
  ]);

  await openSignedIn(page, `/alerts?device=${sensor.device.id}&src_ip=10.9.0.2&signature=3200001`);
  const list = page.getByRole('table', { name: 'Alerts' });
  await visible(page.getByTestId('alerts-total').getByText('Alerts: 6', { exact: true }));
  await list.getByRole('button', { name: 'BACKTEST target' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Alert' });
  await drawer.getByRole('button', { name: 'Suppress source' }).click();
  const review = page.getByRole('dialog', { name: 'Suppress this source?' });
  const summary = review.getByTestId('backtest-summary');
  await visible(summary.getByText(/^Would have removed 6 of 15 alerts \(40%\).* over 7 days$/));
  const row = review
    .getByRole('table', { name: 'Removed per signature' })
    .getByRole('row', { name: /BACKTEST target/ });
  assert.match((await row.textContent()) ?? '', /6 \/ 10.*60%/);
  const device = review
    .getByRole('table', { name: 'Removed per device' })
    .getByRole('row', { name: new RegExp(`backtest-${stamp}`) });
  assert.match((await device.textContent()) ?? '', /6 \/ 15$/);
  await review.getByRole('button', { name: '1 day' }).click();
  await visible(summary.getByText(/^Would have removed 6 of 15 alerts \(40%\).* over 1 day$/));
  // Back: nothing was saved, the policy has no threshold.
  await review.getByRole('button', { name: 'Back to editing' }).click();
  const rendered = await callApi(baseUrl, 'GET', `policies/${policy.id}/render`, token);
  assert.doesNotMatch(rendered.thresholds, /3200001/);
});

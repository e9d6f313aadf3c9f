// Issue 20, item 2: rule analytics. The noisiest rules of a device with their alerts per day,
// one rule's days and devices, the enabled rules that never fired, and "Tune" leading to the
// rule's newest alert, whose drawer backtests the tuning.
import { callApi, eveTime, policyOfRules, reportingDevice } from '../lib/api.ts';
import { ADMIN } from '../lib/env.ts';
import { assert, openSignedIn, visible } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

const NOISY = 3_300_001;
const QUIET = 3_300_002;
const SILENT = 3_300_003;
const rule = (sid: number, msg: string) =>
  `alert tcp any any -> $HOME_NET any (msg:"${msg}"; sid:${sid}; rev:1;)`;

test('rule analytics: noisiest rules per device, a rule opens its days, silent rules of a policy, Tune backtests', async ({
  page,
  baseUrl,
  api,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const stamp = Date.now().toString(36);
  const policy = await policyOfRules(
    baseUrl,
    token,
    `analytics-${stamp}.rules`,
    [
      rule(NOISY, 'ANALYTICS noisy'),
      rule(QUIET, 'ANALYTICS quiet'),
      rule(SILENT, 'ANALYTICS silent'),
    ].join('\n'),
    `Analytics ${stamp}`,
  );
  const name = `analytics-${stamp}`;
  const sensor = await reportingDevice(baseUrl, token, {
    name,
    password: 'sensor-secret-2026',
    policy_id: policy.id,
  });
  const alert = (i: number, sid: number, signature: string) => ({
    timestamp: eveTime(900 + i * 30),
    event_type: 'alert',
    src_ip: `10.8.0.${(i % 4) + 1}`,
    src_port: 40000 + i,
    dest_ip: '198.51.100.9',
    dest_port: 443,
    proto: 'TCP',
    alert: { action: 'allowed', gid: 1, signature_id: sid, rev: 1, signature, severity: 2 },
  });
  await sensor.sendAlerts([
    ...Array.from({ length: 40 }, (_, i) => alert(i, NOISY, 'ANALYTICS noisy')),
    ...Array.from({ length: 12 }, (_, i) => alert(100 + i, QUIET, 'ANALYTICS quiet')),
  ]);

  await openSignedIn(page, '/policies?tab=analytics');
  await page.getByRole('combobox', { name: 'Device' }).click();
  await page.getByRole('option', { name, exact: true }).click();
  await visible(page.getByTestId('analytics-total').getByText('52 alerts in the window'));
  const noisy = page.getByRole('table', { name: 'Noisiest rules' });
  const rows = noisy.getByRole('row');
  await visible(rows.nth(1).getByText('ANALYTICS noisy'));
  assert.match((await rows.nth(1).textContent()) ?? '', /^1:3300001ANALYTICS noisy4076\.9%1/);
  assert.match((await rows.nth(2).textContent()) ?? '', /^1:3300002ANALYTICS quiet1223\.1%1/);
  await visible(rows.nth(1).getByRole('img', { name: /^Alerts per day: / }));

  // A rule opens its days and devices.
  await noisy.getByRole('button', { name: 'ANALYTICS noisy' }).click();
  const activity = page.getByRole('dialog', { name: 'Rule 1:3300001' });
  await visible(activity.getByTestId('rule-activity-summary'));
  assert.equal(
    await activity.getByTestId('rule-activity-summary').textContent(),
    '40 alerts in the window, on 1 devices.',
  );
  await visible(activity.getByRole('row', { name: new RegExp(`^${name} 40`) }));
  await activity.getByRole('button', { name: 'Close' }).click();

  // The policy's enabled rules that never fired on its devices.
  await page.getByRole('combobox', { name: 'Policy' }).click();
  await page.getByRole('option', { name: `Analytics ${stamp}`, exact: true }).click();
  await visible(
    page
      .getByTestId('silent-summary')
      .getByText(
        '1 of the 3 rules this policy runs raised no alert on its 1 devices in the window.',
      ),
  );
  await visible(
    page.getByRole('table', { name: 'Enabled rules that never fired' }).getByText('1:3300003'),
  );

  // Tune: the newest alert of the rule opens, and disabling it shows first what it removes.
  await noisy.getByRole('button', { name: 'Tune rule 1:3300001 from its newest alert' }).click();
  await page.waitForURL(/\/alerts\?/);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('signature'), String(NOISY));
  assert.equal(url.searchParams.get('range'), '7d');
  const drawer = page.getByRole('dialog', { name: 'Alert' });
  await visible(drawer.getByTestId('alert-detail-msg').getByText('ANALYTICS noisy'));
  await drawer.getByRole('button', { name: 'Disable rule' }).click();
  const review = page.getByRole('dialog', { name: /^Disable this rule/ });
  await visible(
    review.getByTestId('backtest-summary').getByText(/^Would have removed 40 of 52 alerts/),
  );
  await review.getByRole('button', { name: 'Back to editing' }).click();
  const rendered = await callApi(baseUrl, 'GET', `policies/${policy.id}/render`, token);
  assert.match(rendered.rules, /sid:3300001;/);
});

// Issue 19 items 5 and 6, agent → server → screen: a sensor reports Suricata stats with its
// heartbeat; the Devices list shows its health columns and marks it degraded, its own page
// shows why and charts the health series, and Home's dashboard counts it as unhealthy.
import { reportingDevice } from '../lib/api.ts';
import { ADMIN } from '../lib/env.ts';
import { assert, signIn, visible, waitForPath } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

const health = {
  time: '2026-11-27T08:00:08.000000+0000',
  kernel_packets: 2_000_000,
  kernel_drops: 150_000,
  drop_percent: 7.5,
  alerts_per_min: 42,
  decoder_bytes: 900_000_000,
  flow_memuse: 7_340_032,
  rules_loaded: 17_674,
  rules_failed: 11,
  last_reload: '2026-11-27T07:00:00.000000+0000',
  rule_errors: [
    'error parsing signature "alert tcp any any -> any any (msg:\\"broken\\"; flow:sideways; sid:9000001;)" from file /var/lib/palisade/out/palisade.rules at line 12',
  ],
};

test('health: a degraded sensor in the Devices list, on its own page and on Home', async ({
  page,
  baseUrl,
  api,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const name = `ids-${Date.now().toString(36)}`;
  const password = 'sensor-secret-2026';
  const { device } = await reportingDevice(
    baseUrl,
    token,
    { name, password },
    {
      metrics: {
        cpu: 20,
        memory_used: 1e9,
        memory_total: 4e9,
        disk_used: 1e10,
        disk_total: 6e10,
        net_in: 1e6,
        net_out: 1e5,
      },
      health,
    },
  );

  await signIn(page);
  await page.setViewportSize({ width: 1600, height: 900 });
  const link = page.getByRole('link', { name, exact: true });
  await visible(link);
  const row = page.getByRole('row').filter({ has: link });
  await visible(row.getByText('Degraded'));
  await visible(row.getByText('7.5 %'));
  await visible(row.getByText('11 failed'));

  await link.click();
  await waitForPath(page, `/devices/${device.id}`);
  const warning = page.getByTestId('device-health-degraded');
  await visible(warning);
  const text = (await warning.textContent()) ?? '';
  assert.ok(text.includes('failed to load 11 rules'), text);
  assert.ok(text.includes('7.5 % of captured packets'), text);
  // The engine's own reason, as the agent read it from suricata.log.
  await visible(page.getByTestId('device-rule-errors').getByText(/flow:sideways/));
  await visible(page.getByTestId('chart-drops'));
  await visible(page.getByTestId('chart-rules'));

  await page.goto('/home');
  const unhealthy = page.getByTestId('fleet-unhealthy');
  await visible(unhealthy.getByRole('link', { name }));
  await unhealthy.getByRole('link', { name }).click();
  await waitForPath(page, `/devices/${device.id}`);
});

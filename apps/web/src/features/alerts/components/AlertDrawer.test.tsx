// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChangePreview } from '@palisade/contract';
import { installFakeApi, renderScreen } from '../../../testing/render';
import type { AlertDetailData } from '../api/get-alert';
import { AlertDrawer } from './AlertDrawer';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ALERT: AlertDetailData = {
  id: 41,
  device_id: 3,
  device: 'edge-1',
  time: '2026-11-28T07:00:00.123456Z',
  gid: 1,
  sid: 2_100_001,
  rev: 2,
  msg: 'ET SCAN probe',
  category: 'Attempted Information Leak',
  severity: 2,
  action: 'allowed',
  proto: 'TCP',
  app_proto: null,
  src_ip: '203.0.113.7',
  src_port: 40000,
  dest_ip: '10.9.9.9',
  dest_port: 80,
  acknowledged: false,
  starred: false,
  event: { event_type: 'alert' },
  rule: {
    id: 5,
    text: 'alert tcp any any -> any 80 (msg:"ET SCAN probe"; sid:2100001;)',
    source: 'scan',
  },
  acknowledged_at: null,
  acknowledged_by: null,
  comments: [
    { body: 'seen from the lab', author: 'ana@example.com', created_at: '2026-11-28T07:05:00Z' },
  ],
  policy_id: 9,
  policy_name: 'Edge',
  flow_id: null,
};

const PREVIEW: ChangePreview = {
  deploy_mode: 'immediate',
  devices_reached: 1,
  config_changed: 0,
  policy_changed: 1,
  devices: [],
  devices_truncated: false,
  lockout: [],
};

function open(api: Parameters<typeof installFakeApi>[0]) {
  const fake = installFakeApi({
    'GET alerts/41': { body: ALERT },
    'GET alerts/41/related': { body: { flow: [], host_pair: [], window: 15 } },
    ...api,
  });
  renderScreen(
    <AlertDrawer
      alertId={41}
      canWrite
      onPivot={() => undefined}
      onOpen={() => undefined}
      onClose={() => undefined}
    />,
  );
  return fake;
}

describe('the alert drawer', () => {
  it("shows the analysts' comments with their author", async () => {
    open({});
    const drawer = await screen.findByRole('dialog', { name: 'Alert' });
    expect(await within(drawer).findByText('seen from the lab')).toBeTruthy();
    expect(within(drawer).getByText(/ana@example\.com/)).toBeTruthy();
  });

  it('reviews a suppression first: Back sends nothing, confirm tunes the policy', async () => {
    const api = open({
      'POST alerts/41/tune/preview': { body: PREVIEW },
      'POST alerts/41/tune': {
        body: { policy_id: 9, policy_version: 4, msg: 'Source suppressed in policy Edge' },
      },
    });
    const drawer = await screen.findByRole('dialog', { name: 'Alert' });
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Suppress source' }));
    const review = await screen.findByRole('dialog', { name: 'Suppress this source?' });
    expect(within(review).getByTestId('change-review-reach').textContent).toBe(
      'Devices this change reaches: 1',
    );
    fireEvent.click(within(review).getByRole('button', { name: 'Back to editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Suppress this source?' })).toBeNull(),
    );
    expect(api.calls.filter((c) => c.path === 'alerts/41/tune')).toEqual([]);

    fireEvent.click(within(drawer).getByRole('button', { name: 'Suppress source' }));
    const again = await screen.findByRole('dialog', { name: 'Suppress this source?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Suppress source' }));
    await waitFor(() =>
      expect(api.calls.filter((c) => c.path === 'alerts/41/tune').map((c) => c.body)).toEqual([
        { action: 'suppress_source' },
      ]),
    );
  });

  it('says why at once when the preview refuses the tuning, with no review', async () => {
    const api = open({
      'POST alerts/41/tune/preview': {
        status: 409,
        body: { msg: 'already', code: 'tune_rule_already_disabled', details: [] },
      },
    });
    const drawer = await screen.findByRole('dialog', { name: 'Alert' });
    const disable = await within(drawer).findByRole('button', { name: 'Disable rule' });
    fireEvent.click(disable);
    // The preview answered (the button is free again) and no review opened.
    await waitFor(() => expect(api.calls.map((c) => c.path)).toContain('alerts/41/tune/preview'));
    await waitFor(() => expect(disable.hasAttribute('disabled')).toBe(false));
    expect(screen.queryByRole('dialog', { name: 'Disable this rule?' })).toBeNull();
    expect(api.calls.filter((c) => c.path === 'alerts/41/tune')).toEqual([]);
  });
});

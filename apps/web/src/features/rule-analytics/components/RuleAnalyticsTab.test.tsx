// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RuleAnalytics, SilentRules } from '@palisade/contract';
import { installFakeApi, renderScreen, type FakeCall } from '../../../testing/render';
import { RuleAnalyticsTab } from './RuleAnalyticsTab';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const overview = (days: number): RuleAnalytics => ({
  days,
  since: '2026-11-22',
  total: 200,
  noisiest: [
    {
      gid: 1,
      sid: 2_100_001,
      msg: 'ET SCAN probe',
      count: 150,
      share: 0.75,
      devices: 3,
      daily: [10, 20, 30, 40, 50, 0, 0],
      last_seen: '2026-11-28T07:00:00.000Z',
    },
  ],
  jumped: [
    {
      gid: 1,
      sid: 2_100_002,
      msg: 'ET POLICY new',
      recent: 40,
      recent_share: 0.5,
      baseline_per_day: 2,
      baseline_share: 0.05,
      factor: 10,
    },
  ],
});

const silent = (policyId: number): SilentRules => ({
  policy_id: policyId,
  days: 7,
  enabled: 120,
  devices: 2,
  recordsTotal: 1,
  data: [{ gid: 1, sid: 2_200_000 + policyId, msg: `quiet rule of ${policyId}` }],
});

function open(onTune = vi.fn()) {
  const api = installFakeApi({
    'GET ruleanalytics/': (call: FakeCall) => ({ body: overview(Number(call.search.get('days'))) }),
    'GET ruleanalytics/silent/5': { body: silent(5) },
    'GET ruleanalytics/silent/6': { body: silent(6) },
  });
  renderScreen(
    <RuleAnalyticsTab
      devices={[
        { id: 3, name: 'edge-1' },
        { id: 4, name: 'edge-2' },
      ]}
      policies={[
        { id: 5, name: 'Edge' },
        { id: 6, name: 'Core' },
      ]}
      onTune={onTune}
    />,
  );
  return { api, onTune };
}

describe('rule analytics', () => {
  it('lists the noisiest rules with share and devices, and Tune names the rule and window', async () => {
    const { onTune } = open();
    const noisy = await screen.findByRole('table', { name: 'Noisiest rules' });
    const row = await within(noisy).findByRole('row', { name: /ET SCAN probe/ });
    expect(row.textContent).toContain('75%');
    expect(
      within(row).getByRole('img', { name: 'Alerts per day: 10, 20, 30, 40, 50, 0, 0' }),
    ).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: /^Tune rule 1:2100001/ }));
    expect(onTune).toHaveBeenCalledWith(2_100_001, 7);
    const jumped = screen.getByRole('table', { name: 'Rules that jumped' });
    expect(within(jumped).getByRole('row', { name: /ET POLICY new/ }).textContent).toContain(
      'from 5% to 50%',
    );
  });

  it('asks again for another window and for one device', async () => {
    const { api } = open();
    await screen.findByText('200 alerts in the window');
    fireEvent.click(screen.getByRole('button', { name: '30 days' }));
    await waitFor(() =>
      expect(
        api.calls.some((c) => c.path === 'ruleanalytics/' && c.search.get('days') === '30'),
      ).toBe(true),
    );
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Device' }));
    fireEvent.click(await screen.findByRole('option', { name: 'edge-2' }));
    await waitFor(() =>
      expect(
        api.calls.some(
          (c) =>
            c.path === 'ruleanalytics/' &&
            c.search.get('device_id') === '4' &&
            c.search.get('days') === '30',
        ),
      ).toBe(true),
    );
  });

  it("lists a policy's silent rules and follows the policy chosen", async () => {
    open();
    expect((await screen.findByTestId('silent-summary')).textContent).toBe(
      '1 of the 120 rules this policy runs raised no alert on its 2 devices in the window.',
    );
    expect(await screen.findByText('quiet rule of 5')).toBeTruthy();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Policy' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Core' }));
    expect(await screen.findByText('quiet rule of 6')).toBeTruthy();
  });

  it('lists no silent rules for a policy no device runs, and says why', async () => {
    installFakeApi({
      'GET ruleanalytics/': { body: overview(7) },
      'GET ruleanalytics/silent/5': { body: { ...silent(5), devices: 0, recordsTotal: 120 } },
    });
    renderScreen(<RuleAnalyticsTab devices={[]} policies={[{ id: 5, name: 'Edge' }]} />);
    expect((await screen.findByTestId('silent-summary')).textContent).toBe(
      'No device runs this policy, so none of its rules could raise an alert.',
    );
    expect(screen.queryByTestId('silent-rules')).toBeNull();
  });

  it('offers no Tune without the right to change policies', async () => {
    installFakeApi({
      'GET ruleanalytics/': { body: overview(7) },
      'GET ruleanalytics/silent/5': { body: silent(5) },
    });
    renderScreen(<RuleAnalyticsTab devices={[]} policies={[{ id: 5, name: 'Edge' }]} />);
    const noisy = await screen.findByRole('table', { name: 'Noisiest rules' });
    await within(noisy).findByRole('row', { name: /ET SCAN probe/ });
    expect(within(noisy).queryByRole('button', { name: /^Tune/ })).toBeNull();
  });
});

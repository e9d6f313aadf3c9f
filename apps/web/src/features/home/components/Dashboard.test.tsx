// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { AlertSummary, DeviceSummary } from '@palisade/contract';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { Dashboard } from './Dashboard';

// uPlot draws on a canvas jsdom lacks; the chart's own behaviour is the browser suite's.
vi.mock('../../../components/charts/TimeChart', () => ({
  TimeChart: ({ label, series }: { label: string; series: { label: string }[] }) => (
    <figure aria-label={label}>{series.map((s) => s.label).join(', ')}</figure>
  ),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SUMMARY: AlertSummary = {
  since: '2026-11-26T08:00:00.000Z',
  interval: 1800,
  rate: [
    { time: '2026-11-26T08:00:00.000Z', counts: [2, 1, 0, 0] },
    { time: '2026-11-26T08:30:00.000Z', counts: [1, 0, 4, 1] },
  ],
  top_signatures: [
    {
      gid: 1,
      sid: 2_013_028,
      msg: 'ET POLICY curl User-Agent Outbound',
      severity: 2,
      count: 7,
      devices: 2,
      first_seen: '2026-11-26T08:01:00.000000Z',
      last_seen: '2026-11-26T08:40:00.000000Z',
    },
  ],
  top_sources: [{ ip: '203.0.113.9', count: 5 }],
  top_destinations: [{ ip: '10.0.0.5', count: 6 }],
};

const named = (...devices: [number, string][]) => devices.map(([id, name]) => ({ id, name }));

/** As the server counts them: 7 offline of which it names 5, newest first. */
const FLEET: DeviceSummary = {
  total: 12,
  problems: {
    offline: {
      count: 7,
      devices: named([12, 'gone'], [11, 'gone-11'], [10, 'gone-10'], [9, 'gone-9'], [8, 'gone-8']),
    },
    pending: { count: 1, devices: named([3, 'behind']) },
    errors: { count: 1, devices: named([3, 'behind']) },
    unhealthy: { count: 1, devices: named([4, 'dropping']) },
    firewall_drift: { count: 1, devices: named([5, 'tampered']) },
  },
};

describe('the Home dashboard', () => {
  it('shows the alert figures and fleet problems, each linking to its filtered view', async () => {
    const api = installFakeApi({
      'GET alerts/summary': { body: SUMMARY },
      'GET devices/summary': { body: FLEET },
      // The server filtered to the failed sources: 12 of them, the first one sent here.
      'GET rulesources/': {
        body: {
          recordsTotal: 12,
          data: [{ id: 5, name: 'ET Open', last_update: { status: 'failed', error: 'HTTP 404' } }],
        },
      },
    });
    renderScreen(<Dashboard />, '/home');

    const signature = await screen.findByRole('link', {
      name: 'ET POLICY curl User-Agent Outbound',
    });
    expect(signature.getAttribute('href')).toBe('/alerts?range=24h&signature=2013028');
    expect(screen.getByRole('link', { name: '203.0.113.9' }).getAttribute('href')).toBe(
      '/alerts?range=24h&src_ip=203.0.113.9',
    );
    expect(screen.getByRole('link', { name: '10.0.0.5' }).getAttribute('href')).toBe(
      '/alerts?range=24h&dest_ip=10.0.0.5',
    );
    // Severity totals over the window, each opening the alerts of that severity and worse.
    const high = screen.getByRole('link', { name: 'High (1): 3' });
    expect(high.getAttribute('href')).toBe('/alerts?range=24h&severity=1');
    expect(screen.getByRole('link', { name: 'Low (3): 4' })).toBeTruthy();

    expect(screen.getByRole('figure', { name: 'Alerts in the last 24 hours' }).textContent).toBe(
      'High (1), Medium (2), Low (3), Other (4+)',
    );
    const offline = await screen.findByTestId('fleet-offline');
    expect(within(offline).getByRole('link', { name: 'Offline: 7' }).getAttribute('href')).toBe(
      '/devices?q=online:false',
    );
    expect(within(offline).getByRole('link', { name: 'gone' }).getAttribute('href')).toBe(
      '/devices/12',
    );
    // The devices the server named, in its order, and how many more the count holds.
    expect(
      within(offline)
        .getAllByRole('link')
        .slice(1)
        .map((a) => a.textContent),
    ).toEqual(['gone', 'gone-11', 'gone-10', 'gone-9', 'gone-8']);
    expect(within(offline).getByText('+2')).toBeTruthy();
    const pending = screen.getByTestId('fleet-pending');
    expect(within(pending).getByRole('link', { name: 'Out of sync: 1' }).getAttribute('href')).toBe(
      '/devices?q=update_pending:true',
    );
    expect(within(screen.getByTestId('fleet-pending')).getByText('behind')).toBeTruthy();
    const errors = screen.getByTestId('fleet-errors');
    expect(within(errors).getByText('behind')).toBeTruthy();
    // Each count opens the device list searched for exactly those devices.
    expect(within(errors).getByRole('link', { name: /: 1$/ }).getAttribute('href')).toBe(
      '/devices?q=error:true',
    );
    const unhealthy = screen.getByTestId('fleet-unhealthy');
    expect(within(unhealthy).getByRole('link', { name: 'Unhealthy: 1' }).getAttribute('href')).toBe(
      '/devices?q=health:degraded',
    );
    expect(within(unhealthy).getByText('dropping')).toBeTruthy();

    // The server counts: the dashboard asks for the figures and a few names, never the fleet.
    const fleetCalls = api.calls.filter((c) => c.path.startsWith('devices/'));
    expect(fleetCalls.map((c) => [c.path, c.search.get('named')])).toContainEqual([
      'devices/summary',
      '5',
    ]);
    expect(fleetCalls.every((c) => c.path === 'devices/summary')).toBe(true);

    const failed = await screen.findByTestId('dashboard-failed-sources');
    // A failed source opens its update history, where the failed update is.
    expect(
      (await within(failed).findByRole('link', { name: 'ET Open' })).getAttribute('href'),
    ).toBe('/policies?tab=sources&source=5');
    expect(within(failed).getByText('HTTP 404')).toBeTruthy();
    // The rest are in the source list, filtered to the failed ones.
    expect(within(failed).getByRole('link', { name: '+11' }).getAttribute('href')).toBe(
      '/policies?tab=sources&status=failed',
    );
    const sourceReads = api.calls.filter((c) => c.path === 'rulesources/');
    expect(sourceReads.map((c) => [c.search.get('filter'), c.search.get('limit')])).toContainEqual([
      'status:failed',
      '10',
    ]);
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { installFakeApi, renderScreen, type FakeCall } from '../../../testing/render';
import { AlertsPage } from './AlertsPage';

// The histogram draws with uPlot, which jsdom cannot host; it plays no part here.
vi.mock('./AlertsHistogram', () => ({ AlertsHistogram: () => null }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const group = (key: { sid?: number; msg?: string; src_ip?: string }, count: number) => ({
  sid: key.sid ?? null,
  msg: key.msg ?? null,
  src_ip: key.src_ip ?? null,
  dest_ip: null,
  device_id: null,
  device: null,
  count,
  first_seen: '2030-01-01T00:00:00.000000Z',
  last_seen: '2030-01-01T05:00:00.000000Z',
  series: [count, 0, 0],
});

/** By signature: two signatures; by source: the sources of signature 2001, or all of them. */
const groupsBy = (call: FakeCall) => {
  const data =
    call.search.get('by') === 'signature'
      ? [group({ sid: 2001, msg: 'ET scan' }, 1234), group({ sid: 2002, msg: 'ET other' }, 5)]
      : call.search.get('signature') === '2001'
        ? [group({ src_ip: '10.0.0.7' }, 1000), group({ src_ip: '10.0.0.8' }, 234)]
        : [group({ src_ip: '10.0.0.1' }, 1234), group({ src_ip: '10.0.0.2' }, 5)];
  return { body: { start: '2030-01-01T00:00:00.000Z', interval: 3600, data } };
};

/** The page's URL, as the router holds it. */
function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.search}</output>;
}
const where = () => new URLSearchParams(screen.getByTestId('where').textContent ?? '');

const renderAlerts = (path: string) => {
  const api = installFakeApi({
    'GET alerts/groups': { body: { data: [] } },
    'GET alerts/groups/by': groupsBy,
  });
  renderScreen(
    <>
      <AlertsPage />
      <Where />
    </>,
    path,
  );
  return api;
};
const groupCalls = (api: ReturnType<typeof installFakeApi>) =>
  api.calls.filter((c) => c.path === 'alerts/groups/by');

describe('the grouped alerts view', () => {
  it('takes the grouping from the URL, each group with its count and sparkline', async () => {
    const api = renderAlerts('/alerts?view=groups&group=source&severity=2');
    const rows = await screen.findAllByTestId('alert-group');
    expect(rows).toHaveLength(2);
    expect(screen.getByRole('combobox', { name: 'Group by' }).textContent).toBe('Source');
    expect(within(rows[0] as HTMLElement).getByText('10.0.0.1')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('1,234')).toBeTruthy();
    expect(
      within(rows[0] as HTMLElement).getByRole('img', { name: 'Alerts over time of 10.0.0.1' }),
    ).toBeTruthy();
    const asked = groupCalls(api)[0];
    expect(asked?.search.get('by')).toBe('source');
    expect(asked?.search.get('severity')).toBe('2');
  });

  it('keeps the chosen grouping in the URL', async () => {
    const api = renderAlerts('/alerts?view=groups');
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Group by' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Destination' }));
    await waitFor(() => expect(where().get('group')).toBe('destination'));
    await waitFor(() =>
      expect(groupCalls(api).some((c) => c.search.get('by') === 'destination')).toBe(true),
    );
  });

  it("opens a group's alerts in the list, filtered to it, keeping the other filters", async () => {
    renderAlerts('/alerts?view=groups&group=source&severity=2');
    const rows = await screen.findAllByTestId('alert-group');
    fireEvent.click(within(rows[1] as HTMLElement).getByText('5'));
    await waitFor(() => expect(where().get('view')).toBe('list'));
    expect(where().get('src_ip')).toBe('10.0.0.2');
    expect(where().get('severity')).toBe('2');
    expect(where().get('group')).toBe('source');
  });

  it('lists signatures that expand to their sources, each level opening its alerts', async () => {
    const api = renderAlerts('/alerts?view=groups&group=signature_source');
    const signatures = await screen.findAllByTestId('alert-group');
    expect(signatures).toHaveLength(2);
    expect(groupCalls(api)[0]?.search.get('by')).toBe('signature');
    expect(screen.queryAllByTestId('alert-subgroup')).toHaveLength(0);

    const expand = screen.getByRole('button', { name: 'Show the sources of ET scan' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(expand);
    const sources = await screen.findAllByTestId('alert-subgroup');
    expect(sources).toHaveLength(2);
    expect(expand.getAttribute('aria-expanded')).toBe('true');
    const asked = groupCalls(api).find((c) => c.search.get('by') === 'source');
    expect(asked?.search.get('signature')).toBe('2001');
    expect(within(sources[0] as HTMLElement).getByText('10.0.0.7')).toBeTruthy();
    expect(within(sources[0] as HTMLElement).getByText('1,000')).toBeTruthy();
    expect(
      within(sources[0] as HTMLElement).getByRole('img', { name: 'Alerts over time of 10.0.0.7' }),
    ).toBeTruthy();
    // Expanding stays in the grouped view.
    expect(where().get('view')).toBe('groups');

    fireEvent.click(screen.getByRole('button', { name: 'Show the alerts of 10.0.0.8' }));
    await waitFor(() => expect(where().get('view')).toBe('list'));
    expect(where().get('signature')).toBe('2001');
    expect(where().get('src_ip')).toBe('10.0.0.8');
  });

  it('opens a signature of the two-level view as its alerts', async () => {
    renderAlerts('/alerts?view=groups&group=signature_source');
    fireEvent.click(await screen.findByRole('button', { name: 'Show the alerts of ET other' }));
    await waitFor(() => expect(where().get('view')).toBe('list'));
    expect(where().get('signature')).toBe('2002');
    expect(where().get('src_ip')).toBeNull();
  });
});

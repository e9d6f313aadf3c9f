// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RuleSource, RuleSourceUpdateSummary } from '@palisade/contract';
import { useLocation } from 'react-router';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { SourceList } from './SourceList';

const summary = (patch: Partial<RuleSourceUpdateSummary>): RuleSourceUpdateSummary => ({
  id: 7,
  source_id: 1,
  status: 'succeeded',
  phase: null,
  trigger: 'manual',
  requested_by: 'admin@example.com',
  created_at: '2026-11-25T10:00:00.000Z',
  started_at: '2026-11-25T10:00:01.000Z',
  finished_at: '2026-11-25T10:00:09.000Z',
  added: 0,
  removed: 0,
  changed: 0,
  enabled: 0,
  disabled: 0,
  policies_bumped: 0,
  bytes: 0,
  error: null,
  warning_count: 0,
  ...patch,
});

const source: RuleSource = {
  id: 1,
  name: 'ET Open',
  url: 'http://127.0.0.1:9/emerging.rules.tar.gz',
  checksum_url: null,
  catalogue_id: 'et/open',
  has_secret: false,
  header_names: [],
  schedule: { kind: 'daily', time: '03:00' },
  enabled: true,
  rule_count: 48_000,
  enabled_count: 40_000,
  group_count: 60,
  last_update: summary({ status: 'failed', error: 'HTTP 404 from 127.0.0.1:9' }),
  last_checked_at: null,
  next_update_at: '2026-11-26T03:00:00.000Z',
  created_at: '2026-11-25T09:00:00.000Z',
  updated_at: '2026-11-25T09:00:00.000Z',
};

/** Where the router is: the list keeps its filter in the URL. */
function Address() {
  const location = useLocation();
  return <output data-testid="address">{location.search}</output>;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SourceList', () => {
  it('shows each source with its last update, and follows "Update now" to its end', async () => {
    const updates = [
      summary({ id: 8, status: 'queued' }),
      summary({ id: 8, status: 'running', phase: 'importing' }),
      summary({ id: 8, status: 'succeeded', added: 3, changed: 2 }),
    ];
    const api = installFakeApi({
      'GET rulesources/': { body: { data: [source], recordsTotal: 1 } },
      'POST rulesources/1/update': { status: 202, body: { update_id: 8 } },
      'GET rulesources/1/updates/8': () => ({
        body: { ...(updates.length > 1 ? updates.shift() : updates[0]), warnings: [] },
      }),
    });
    renderScreen(<SourceList canWrite />);

    const row = (await screen.findByText('ET Open')).closest('tr');
    expect(row).not.toBeNull();
    const cells = within(row as HTMLElement);
    expect(cells.getByText('Failed')).toBeTruthy();
    expect(cells.getByText('48000')).toBeTruthy();

    fireEvent.click(cells.getByRole('button', { name: 'Update now: ET Open' }));
    await cells.findByText('Importing', {}, { timeout: 4000 });
    await waitFor(() => expect(cells.getByText('Update now')).toBeTruthy(), { timeout: 6000 });
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      'rulesources/1/update',
    ]);
    const listReads = api.calls.filter((c) => c.path === 'rulesources/');
    expect(listReads.length).toBeGreaterThan(1);
    expect(listReads[0]?.search.get('sortBy')).toBe('name');
  });

  it('filters by the last update from the URL, and keeps the chosen filter there', async () => {
    const api = installFakeApi({
      'GET rulesources/': { body: { data: [source], recordsTotal: 1 } },
    });
    renderScreen(
      <>
        <SourceList canWrite={false} />
        <Address />
      </>,
      '/policies?tab=sources&status=failed',
    );
    await screen.findByText('ET Open');
    const filters = () =>
      api.calls.filter((c) => c.path === 'rulesources/').map((c) => c.search.get('filter'));
    expect(filters()).toEqual(['status:failed']);
    const select = screen.getByRole('combobox', { name: 'Last update' });
    expect(select.textContent).toBe('Failed');

    fireEvent.mouseDown(select);
    fireEvent.click(await screen.findByRole('option', { name: 'Never updated' }));
    await waitFor(() => expect(filters().at(-1)).toBe('status:never'));
    expect(screen.getByTestId('address').textContent).toBe('?tab=sources&status=never');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Last update' }));
    fireEvent.click(await screen.findByRole('option', { name: 'All' }));
    await waitFor(() => expect(filters().at(-1)).toBeNull());
    expect(screen.getByTestId('address').textContent).toBe('?tab=sources');
  });

  it('Viewers see the list without the writing actions', async () => {
    installFakeApi({ 'GET rulesources/': { body: { data: [source], recordsTotal: 1 } } });
    renderScreen(<SourceList canWrite={false} />);
    await screen.findByText('ET Open');
    expect(screen.queryByRole('button', { name: 'Add from catalogue' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Update now: ET Open' })).toBeNull();
  });
});

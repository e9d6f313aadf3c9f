// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../testing/render';
import { DataTable, type DataTableProps } from './DataTable';
import { initialTableState, type TableState } from './list-params';
import type { DataColumn } from './types';

afterEach(cleanup);

interface Host {
  name: string;
  alerts: number;
}

const HOSTS: Host[] = Array.from({ length: 30 }, (_, i) => ({
  name: `host-${String(i + 1).padStart(2, '0')}`,
  alerts: (i * 7) % 30,
}));

const COLUMNS: DataColumn<Host>[] = [
  { id: 'name', header: 'Name', cell: (row) => row.name, sortable: true },
  { id: 'alerts', header: 'Alerts', cell: (row) => String(row.alerts) },
];

/** Stands in for the server: sorts by name and cuts out the page the state asks for. */
function pageOf(state: TableState): Host[] {
  const name = state.sorting.find((s) => s.id === 'name');
  const sorted = [...HOSTS];
  if (name !== undefined) {
    sorted.sort((a, b) => (name.desc ? -1 : 1) * a.name.localeCompare(b.name));
  }
  const start = state.pageIndex * state.pageSize;
  return sorted.slice(start, start + state.pageSize);
}

type Extra = Partial<DataTableProps<Host>>;

function Harness({ onStateChange, ...extra }: Extra & { onStateChange: (s: TableState) => void }) {
  const [state, setState] = useState(initialTableState(10));
  return (
    <DataTable
      label="Hosts"
      columns={COLUMNS}
      rows={pageOf(state)}
      total={HOSTS.length}
      getRowId={(row) => row.name}
      state={state}
      onStateChange={(next) => {
        onStateChange(next);
        setState(next);
      }}
      {...extra}
    />
  );
}

const bodyNames = () =>
  within(screen.getByRole('table', { name: 'Hosts' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelector('td')?.textContent);

describe('DataTable', () => {
  it('shows the rows under their headers, one table row each', () => {
    renderScreen(<Harness onStateChange={vi.fn()} />);
    const table = screen.getByRole('table', { name: 'Hosts' });
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: 'Alerts' })).toBeTruthy();
    expect(bodyNames()).toEqual(HOSTS.slice(0, 10).map((h) => h.name));
    expect(table.getAttribute('aria-rowcount')).toBe('30');
  });

  it('asks for the first page sorted by a header the user clicks, then the other way', () => {
    const onStateChange = vi.fn();
    renderScreen(<Harness onStateChange={onStateChange} />);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onStateChange).toHaveBeenLastCalledWith(expect.objectContaining({ pageIndex: 1 }));

    const header = screen.getByRole('button', { name: 'Name' });
    fireEvent.click(header);
    expect(onStateChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ sorting: [{ id: 'name', desc: false }], pageIndex: 0 }),
    );
    expect(header.classList.contains('Mui-active')).toBe(true);
    expect(bodyNames()[0]).toBe('host-01');

    fireEvent.click(header);
    expect(onStateChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ sorting: [{ id: 'name', desc: true }] }),
    );
    expect(bodyNames()[0]).toBe('host-30');
  });

  it('offers sorting only on the columns the server sorts by', () => {
    renderScreen(<Harness onStateChange={vi.fn()} />);
    const alerts = screen.getByRole('columnheader', { name: 'Alerts' });
    expect(within(alerts).queryByRole('button')).toBeNull();
  });

  it('pages forwards and back, and a new page size starts at the first page', () => {
    const onStateChange = vi.fn();
    renderScreen(<Harness onStateChange={onStateChange} />);
    expect(screen.getByText('1–10 of 30')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previous page' })).toHaveProperty('disabled', true);

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByText('11–20 of 30')).toBeTruthy();
    expect(bodyNames()[0]).toBe('host-11');

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByRole('button', { name: 'Next page' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(screen.getByText('11–20 of 30')).toBeTruthy();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Rows per page/ }));
    fireEvent.click(screen.getByRole('option', { name: '25' }));
    expect(onStateChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ pageSize: 25, pageIndex: 0 }),
    );
    expect(screen.getByText('1–25 of 30')).toBeTruthy();
  });

  it('searches from the first page once typing stops', async () => {
    const onStateChange = vi.fn();
    renderScreen(<Harness onStateChange={onStateChange} />);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), {
      target: { value: 'host-2' },
    });
    await waitFor(() =>
      expect(onStateChange).toHaveBeenLastCalledWith(
        expect.objectContaining({ search: 'host-2', pageIndex: 0 }),
      ),
    );
  });

  it('tells which row the user clicked', () => {
    const onRowClick = vi.fn();
    renderScreen(<Harness onStateChange={vi.fn()} onRowClick={onRowClick} />);
    fireEvent.click(screen.getByText('host-03'));
    expect(onRowClick).toHaveBeenCalledWith(HOSTS[2]);
  });

  it('marks the row the keyboard is on', () => {
    renderScreen(<Harness onStateChange={vi.fn()} onRowClick={vi.fn()} activeIndex={1} />);
    const row = screen.getByText('host-02').closest('tr');
    expect(row?.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('host-01').closest('tr')?.getAttribute('aria-selected')).toBe('false');
  });

  it('says so when there is nothing to show, is loading, or failed', () => {
    const table = (extra: Extra) => (
      <DataTable
        label="Hosts"
        columns={COLUMNS}
        rows={[]}
        total={0}
        getRowId={(row) => row.name}
        state={initialTableState()}
        onStateChange={vi.fn()}
        {...extra}
      />
    );
    renderScreen(table({}));
    expect(screen.getByTestId('table-empty').textContent).toBe('No data');
    cleanup();

    renderScreen(table({ emptyText: 'No hosts yet' }));
    expect(screen.getByTestId('table-empty').textContent).toBe('No hosts yet');
    cleanup();

    renderScreen(table({ loading: true }));
    expect(screen.getByTestId('table-loading').textContent).toBe('Loading...');
    expect(screen.getByRole('progressbar')).toBeTruthy();
    cleanup();

    const onRetry = vi.fn();
    renderScreen(table({ error: 'The server is down', onRetry }));
    expect(within(screen.getByTestId('table-error')).getByText('The server is down')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});

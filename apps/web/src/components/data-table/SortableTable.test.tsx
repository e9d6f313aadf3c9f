// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../testing/render';
import { SortableTable } from './SortableTable';
import type { DataColumn } from './types';

interface Step {
  id: string;
  name: string;
}

const STEPS: Step[] = [
  { id: 'a', name: 'accept established' },
  { id: 'b', name: 'allow ssh' },
  { id: 'c', name: 'drop the rest' },
];

const COLUMNS: DataColumn<Step>[] = [{ id: 'name', header: 'Rule', cell: (row) => row.name }];

const ROW_HEIGHT = 40;

// jsdom lays nothing out: give each row the place a browser would, one under the other, so
// that the keyboard's moves find the row below.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
    this: HTMLElement,
  ) {
    const row = this.closest<HTMLElement>('[data-row-id]');
    if (row === null) return DOMRect.fromRect();
    const index = [...(row.parentElement?.children ?? [])].indexOf(row);
    return DOMRect.fromRect({ x: 0, y: index * ROW_HEIGHT, width: 600, height: ROW_HEIGHT });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  cleanup();
});

const shownOrder = () =>
  within(screen.getByRole('table', { name: 'Ruleset' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.getAttribute('data-row-id'));

const table = (rows: Step[], onSorted = vi.fn()) => (
  <SortableTable
    label="Ruleset"
    columns={COLUMNS}
    rows={rows}
    getRowId={(row) => row.id}
    onSorted={onSorted}
    emptyText="No rules yet"
  />
);

describe('SortableTable', () => {
  it('shows the rows in their order, each with a drag handle', () => {
    renderScreen(table(STEPS));
    expect(screen.getByRole('columnheader', { name: 'Rule' })).toBeTruthy();
    expect(shownOrder()).toEqual(['a', 'b', 'c']);
    expect(screen.getAllByRole('button', { name: 'Drag to reorder' })).toHaveLength(3);
  });

  it('moves a row down with the keyboard and tells the new order', async () => {
    const onSorted = vi.fn();
    renderScreen(table(STEPS, onSorted));
    const handle = screen.getAllByRole('button', { name: 'Drag to reorder' })[0];
    if (handle === undefined) throw new Error('no handle');
    handle.focus();
    fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
    // The sensor listens for the moves from the next tick on.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    fireEvent.keyDown(document, { code: 'ArrowDown', key: 'ArrowDown' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    fireEvent.keyDown(document, { code: 'Space', key: ' ' });

    await waitFor(() => expect(onSorted).toHaveBeenCalledOnce());
    expect(onSorted).toHaveBeenCalledWith({
      order: [STEPS[1], STEPS[0], STEPS[2]],
      from: 0,
      to: 1,
    });
    expect(shownOrder()).toEqual(['b', 'a', 'c']);
  });

  it('leaves the order alone when a drag is cancelled', async () => {
    const onSorted = vi.fn();
    renderScreen(table(STEPS, onSorted));
    const handle = screen.getAllByRole('button', { name: 'Drag to reorder' })[0];
    if (handle === undefined) throw new Error('no handle');
    handle.focus();
    fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    fireEvent.keyDown(document, { code: 'ArrowDown', key: 'ArrowDown' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    fireEvent.keyDown(document, { code: 'Escape', key: 'Escape' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(onSorted).not.toHaveBeenCalled();
    expect(shownOrder()).toEqual(['a', 'b', 'c']);
  });

  it('keeps the order, and tells nothing, when a row is dropped where it was picked up', async () => {
    const onSorted = vi.fn();
    renderScreen(table(STEPS, onSorted));
    const handle = screen.getAllByRole('button', { name: 'Drag to reorder' })[1];
    if (handle === undefined) throw new Error('no handle');
    handle.focus();
    fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    fireEvent.keyDown(document, { code: 'Space', key: ' ' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(onSorted).not.toHaveBeenCalled();
    expect(shownOrder()).toEqual(['a', 'b', 'c']);
  });

  it('shows the rows the parent sends next, in their order', () => {
    function Reloading() {
      const [rows, setRows] = useState(STEPS);
      return (
        <>
          <button type="button" onClick={() => setRows([STEPS[2], STEPS[0]] as Step[])}>
            Reload
          </button>
          {table(rows)}
        </>
      );
    }
    renderScreen(<Reloading />);
    expect(shownOrder()).toEqual(['a', 'b', 'c']);
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(shownOrder()).toEqual(['c', 'a']);
  });

  it('says so when there are no rows', () => {
    renderScreen(table([]));
    expect(screen.getByText('No rules yet')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Drag to reorder' })).toBeNull();
  });
});

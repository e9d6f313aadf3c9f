// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { renderScreen } from '../../testing/render';
import { SortableTable, type SortedEvent } from './SortableTable';
import type { DataColumn } from './types';

interface Fruit {
  id: string;
  name: string;
}

const FRUITS: Fruit[] = [
  { id: 'a', name: 'Apple' },
  { id: 'b', name: 'Banana' },
  { id: 'c', name: 'Cherry' },
];
const COLUMNS: DataColumn<Fruit>[] = [{ id: 'name', header: 'Name', cell: (f) => f.name }];
const ROW_HEIGHT = 40;

// jsdom lays nothing out; the keyboard drag moves by the rows' boxes, so give each row its own.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
    this: HTMLElement,
  ) {
    const row = this.closest('tr');
    const top = row === null ? 0 : row.sectionRowIndex * ROW_HEIGHT;
    return DOMRect.fromRect({ x: 0, y: top, width: 600, height: ROW_HEIGHT });
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const shownNames = () =>
  within(screen.getByRole('table', { name: 'Fruit' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]?.textContent);

/**
 * Presses a key on the handle, then lets a task pass: the drag starts listening for its
 * keys in the next task, and measures the rows after a render.
 */
async function press(handle: HTMLElement, code: string) {
  await act(async () => {
    fireEvent.keyDown(handle, { code, key: code === 'Space' ? ' ' : code });
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/** Picks a row up by its handle with the keyboard, moves it `steps` down and drops it. */
async function dragDown(index: number, steps: number) {
  const handle = screen.getAllByRole('button', { name: 'Drag to reorder' })[index];
  if (handle === undefined) throw new Error(`no handle ${index}`);
  handle.focus();
  await press(handle, 'Space');
  for (let step = 0; step < steps; step += 1) await press(handle, 'ArrowDown');
  await press(handle, 'Space');
}

describe('SortableTable', () => {
  it('shows the rows in order, each with a drag handle, under its name', () => {
    renderScreen(
      <SortableTable
        label="Fruit"
        columns={COLUMNS}
        rows={FRUITS}
        getRowId={(f) => f.id}
        onSorted={vi.fn()}
      />,
    );
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeTruthy();
    expect(shownNames()).toEqual(['Apple', 'Banana', 'Cherry']);
    expect(screen.getAllByRole('button', { name: 'Drag to reorder' })).toHaveLength(3);
  });

  it('says it is empty', () => {
    renderScreen(
      <SortableTable
        label="Fruit"
        columns={COLUMNS}
        rows={[]}
        getRowId={(f) => f.id}
        onSorted={vi.fn()}
        emptyText="No fruit yet."
      />,
    );
    expect(screen.getByText('No fruit yet.')).toBeTruthy();
  });

  it('moves a row with the keyboard and tells the new order', async () => {
    const onSorted = vi.fn<(event: SortedEvent<Fruit>) => void>();
    renderScreen(
      <SortableTable
        label="Fruit"
        columns={COLUMNS}
        rows={FRUITS}
        getRowId={(f) => f.id}
        onSorted={onSorted}
      />,
    );
    await dragDown(0, 1);
    expect(onSorted).toHaveBeenCalledTimes(1);
    const event = onSorted.mock.calls[0]?.[0];
    expect(event?.from).toBe(0);
    expect(event?.to).toBe(1);
    expect(event?.order.map((f) => f.name)).toEqual(['Banana', 'Apple', 'Cherry']);
    expect(shownNames()).toEqual(['Banana', 'Apple', 'Cherry']);
  });

  it('keeps the order when a row is dropped where it was picked up', async () => {
    const onSorted = vi.fn();
    renderScreen(
      <SortableTable
        label="Fruit"
        columns={COLUMNS}
        rows={FRUITS}
        getRowId={(f) => f.id}
        onSorted={onSorted}
      />,
    );
    await dragDown(1, 0);
    expect(onSorted).not.toHaveBeenCalled();
    expect(shownNames()).toEqual(['Apple', 'Banana', 'Cherry']);
  });
});

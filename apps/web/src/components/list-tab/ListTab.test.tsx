// @vitest-environment jsdom
import { useCallback } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { renderScreen } from '../../testing/render';
import { ListTab, type AddressOpener, type ListTabActions } from './ListTab';

afterEach(cleanup);

interface Thing {
  id: number;
  name: string;
}

const THINGS: Thing[] = [
  { id: 1, name: 'Alpha' },
  { id: 2, name: 'Bravo' },
];

const openFromAddress: AddressOpener<Thing, Thing> = {
  param: 'thing',
  resolve: (id, things) => (things === undefined ? 'wait' : things.find((x) => x.id === id)),
};

function ThingsTab({
  canWrite = true,
  remove = vi.fn(() => Promise.resolve()),
  fromAddress = false,
}: {
  canWrite?: boolean;
  remove?: (id: number) => Promise<unknown>;
  fromAddress?: boolean;
}) {
  const list = useQuery({ queryKey: ['things'], queryFn: () => Promise.resolve({ data: THINGS }) });
  const columns = useCallback(
    ({ open, askToDelete }: ListTabActions<Thing, Thing>) => [
      { id: 'name', header: 'Name', sortable: true, cell: (x: Thing) => x.name },
      {
        id: 'actions',
        header: 'Actions',
        cell: (x: Thing) => (
          <>
            <button onClick={() => open(x)}>Edit {x.name}</button>
            <button onClick={() => askToDelete(x)}>Delete {x.name}</button>
          </>
        ),
      },
    ],
    [],
  );
  return (
    <ListTab
      label="Things"
      list={list}
      columns={columns}
      searchTexts={(x) => [x.name]}
      emptyText="No things yet."
      noMatchText="Nothing matches."
      createLabel={canWrite ? 'New thing' : undefined}
      deleteTexts={{
        title: 'groups.deleteTitle',
        body: 'groups.deleteBody',
        deleting: 'groups.notices.deleting',
        deleted: 'groups.notices.deleted',
      }}
      remove={remove}
      openFromAddress={fromAddress ? openFromAddress : undefined}
      editor={(editing, close) =>
        editing === null ? null : (
          <div role="dialog" aria-label={editing === 'new' ? 'New thing' : `Thing ${editing.name}`}>
            <button onClick={close}>Close editor</button>
          </div>
        )
      }
    />
  );
}

describe('ListTab', () => {
  it('lists the items in the named table', async () => {
    renderScreen(<ThingsTab />);
    const table = screen.getByRole('table', { name: 'Things' });
    await within(table).findByText('Alpha');
    expect(within(table).getByText('Bravo')).toBeTruthy();
  });

  it('opens the editor on a new item with the create button, and closes it', async () => {
    renderScreen(<ThingsTab />);
    fireEvent.click(screen.getByRole('button', { name: 'New thing' }));
    const editor = screen.getByRole('dialog', { name: 'New thing' });
    fireEvent.click(within(editor).getByRole('button', { name: 'Close editor' }));
    expect(screen.queryByRole('dialog', { name: 'New thing' })).toBeNull();
  });

  it('offers no create button to a reader', async () => {
    renderScreen(<ThingsTab canWrite={false} />);
    await screen.findByText('Alpha');
    expect(screen.queryByRole('button', { name: 'New thing' })).toBeNull();
  });

  it('opens the editor on the item whose row asked', async () => {
    renderScreen(<ThingsTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Bravo' }));
    expect(screen.getByRole('dialog', { name: 'Thing Bravo' })).toBeTruthy();
  });

  it('deletes only once the question is confirmed', async () => {
    const remove = vi.fn(() => Promise.resolve());
    renderScreen(<ThingsTab remove={remove} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Delete Alpha' }));
    const question = await screen.findByRole('dialog', { name: 'Delete group' });
    expect(within(question).getByText('Delete the group Alpha? Its rules stay.')).toBeTruthy();
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete group' })).toBeNull());
    expect(remove).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Delete Bravo' }));
    const again = await screen.findByRole('dialog', { name: 'Delete group' });
    fireEvent.click(within(again).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(remove).toHaveBeenCalledWith(2));
    expect(remove).toHaveBeenCalledTimes(1);
  });

  it('says when a search finds nothing, apart from an empty list', async () => {
    renderScreen(<ThingsTab />);
    await screen.findByText('Alpha');
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'zulu' } });
    await screen.findByText('Nothing matches.');
    expect(screen.queryByText('No things yet.')).toBeNull();
  });

  it('opens the item the address names once the list is read', async () => {
    renderScreen(<ThingsTab fromAddress />, '/?thing=2');
    expect(await screen.findByRole('dialog', { name: 'Thing Bravo' })).toBeTruthy();
  });
});

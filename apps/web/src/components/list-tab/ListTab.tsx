import { useCallback, useMemo, useState, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import AddIcon from '@mui/icons-material/Add';
import { DataTable } from '../data-table/DataTable';
import { initialTableState } from '../data-table/list-params';
import { localPage } from '../data-table/local-page';
import { tableQueryStatus } from '../data-table/query-status';
import type { DataColumn } from '../data-table/types';
import { useOpenFromAddress } from '../page/useOpenFromAddress';
import { useConfirmedDelete, type ConfirmedDeleteTexts } from '../page/useConfirmedDelete';

/** What is being edited: an existing item (or its key), a new one, or nothing. */
export type Editing<E> = E | 'new' | null;

/** What a row's action buttons may do in the tab. */
export interface ListTabActions<T, E> {
  open: (target: E) => void;
  askToDelete: (item: T) => void;
}

/**
 * The address parameter naming an item, and what to open for its id given the list (undefined
 * while the list loads): `'wait'` until it can tell, `undefined` when there is no such item.
 * Keep `resolve` stable.
 */
export interface AddressOpener<T, E> {
  param: string;
  resolve: (id: number, items: T[] | undefined) => E | 'wait' | undefined;
}

export interface ListTabProps<T extends { id: number; name: string }, E> {
  /** The table's accessible name. */
  label: string;
  /** The whole list, searched, sorted and paged in the browser. */
  list: UseQueryResult<{ data: T[] }>;
  /** Keep it stable (`useCallback`): the columns are rebuilt when it changes. */
  columns: (actions: ListTabActions<T, E>) => DataColumn<T>[];
  searchTexts: (item: T) => string[];
  emptyText: string;
  /** Said instead of `emptyText` when a search found nothing. */
  noMatchText?: string;
  height?: string;
  /** The create button's text; no button without it (a reader may not create). */
  createLabel?: string;
  /** `end`: the button alone at the end of its own row; `start`: where the text begins. */
  createPlacement?: 'start' | 'end';
  deleteTexts: ConfirmedDeleteTexts;
  remove: (id: number) => Promise<unknown>;
  /** The editor for what is being edited; the tab shows what this returns. */
  editor: (editing: Editing<E>, close: () => void) => ReactNode;
  /** Opens the editor on the item the address names (`?ruleset=7`, a link from elsewhere). */
  openFromAddress?: AddressOpener<T, E>;
  /** The tab's other dialogs (history, preview…). */
  children?: ReactNode;
}

/**
 * The scaffolding every list tab shares: a searchable table of one list, a create button, the
 * editor opened on a new or an existing item, and the question before a delete.
 */
export function ListTab<T extends { id: number; name: string }, E = T>(props: ListTabProps<T, E>) {
  const { t } = useTranslation();
  const [state, setState] = useState(() => initialTableState(25, [{ id: 'name', desc: false }]));
  const [editing, setEditing] = useState<Editing<E>>(null);
  const { ask: askToDelete, dialog: deleteDialog } = useConfirmedDelete<T>(
    props.deleteTexts,
    props.remove,
  );
  const { columns: buildColumns } = props;
  const columns = useMemo(
    () => buildColumns({ open: setEditing, askToDelete }),
    [buildColumns, setEditing, askToDelete],
  );
  const page = localPage(props.list.data?.data ?? [], state, props.searchTexts);
  const emptyText =
    props.noMatchText !== undefined && state.search !== '' ? props.noMatchText : props.emptyText;
  return (
    <>
      {props.createLabel !== undefined && (
        <CreateButton
          label={props.createLabel}
          placement={props.createPlacement ?? 'end'}
          onClick={() => setEditing('new')}
        />
      )}
      <DataTable
        label={props.label}
        columns={columns}
        rows={page.rows}
        total={page.total}
        getRowId={(item) => String(item.id)}
        state={state}
        onStateChange={setState}
        {...tableQueryStatus(props.list, t)}
        emptyText={emptyText}
        height={props.height}
      />
      {props.openFromAddress !== undefined && (
        <OpenFromAddress
          opener={props.openFromAddress}
          items={props.list.data?.data}
          onOpen={setEditing}
        />
      )}
      {props.editor(editing, () => setEditing(null))}
      {props.children}
      {deleteDialog}
    </>
  );
}

function CreateButton({
  label,
  placement,
  onClick,
}: {
  label: string;
  placement: 'start' | 'end';
  onClick: () => void;
}) {
  if (placement === 'start')
    return (
      <Button variant="contained" startIcon={<AddIcon />} sx={{ mb: 2 }} onClick={onClick}>
        {label}
      </Button>
    );
  return (
    <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 2 }}>
      <Button variant="contained" startIcon={<AddIcon />} onClick={onClick}>
        {label}
      </Button>
    </Stack>
  );
}

/** Apart so that only a tab opened from links needs the router. */
function OpenFromAddress<T, E>({
  opener: { param, resolve },
  items,
  onOpen,
}: {
  opener: AddressOpener<T, E>;
  items: T[] | undefined;
  onOpen: (target: E) => void;
}) {
  useOpenFromAddress(
    param,
    useCallback(
      (id: number) => {
        const target = resolve(id, items);
        if (target === 'wait') return false;
        if (target !== undefined) onOpen(target);
        return true;
      },
      [resolve, items, onOpen],
    ),
  );
  return null;
}

import { useMemo, useState } from 'react';
import { storage } from '../../lib/storage';
import type { DataColumn } from './types';

/** Which optional columns the user chose to show (true) or hide (false), by column id. */
export type ColumnChoice = Record<string, boolean>;

const storageKey = (table: string) => `palisade.columns.${table}`;

/** The stored choice of a table, or none when absent or not one. */
export function readColumnChoice(table: string | undefined): ColumnChoice {
  if (table === undefined) return {};
  const raw = storage.get(storageKey(table));
  if (raw === null) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, boolean] => {
        return typeof entry[1] === 'boolean';
      }),
    );
  } catch {
    return {};
  }
}

export const isShown = <T>(column: DataColumn<T>, choice: ColumnChoice): boolean =>
  column.optional === undefined || (choice[column.id] ?? column.optional === 'shown');

/**
 * The columns to draw and the user's choice of the optional ones, kept in local storage under
 * the table's key (in memory only without one) so that it outlives the page.
 */
export function useColumnChoice<T>(columns: DataColumn<T>[], table: string | undefined) {
  const [choice, setChoice] = useState(() => readColumnChoice(table));
  const shown = useMemo(() => columns.filter((c) => isShown(c, choice)), [columns, choice]);
  const choose = (id: string, on: boolean) => {
    const next = { ...choice, [id]: on };
    setChoice(next);
    if (table !== undefined) storage.set(storageKey(table), JSON.stringify(next));
  };
  return { shown, choice, choose };
}

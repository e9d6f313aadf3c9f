import type { AlertView } from '@palisade/contract';
import type { AlertViewRow } from './alert-views.repository.js';

/** A stored view as the API shows it to `userId`. */
export const presentAlertView = (row: AlertViewRow, userId: number): AlertView => ({
  id: row.id,
  name: row.name,
  filters: row.filters,
  shared: row.shared,
  owner: row.owner,
  can_edit: row.user_id === userId,
  updated_at: row.updated_at.toISOString(),
});

/** What an audit record keeps of a view. */
export const auditedView = (row: AlertViewRow) => ({
  name: row.name,
  filters: row.filters,
  shared: row.shared,
});

import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import type { User } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import type { DataColumn } from '../../../components/data-table/types';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { ConfirmDialog } from '../../../components/page/ConfirmDialog';
import { PageShell } from '../../../components/page/PageShell';
import { DateText } from '../../../components/page/DateText';
import { roleLabelKey } from '../../../lib/role-label';
import { useDeleteUser } from '../api/delete-user';
import { usersListQueryOptions } from '../api/list-users';
import { tableQueryStatus } from '../../../components/data-table/query-status';

/** /admin/users/all: the organization's users, server-side paged, sorted and searched. */
export function UsersListPage() {
  const { t } = useTranslation();
  const [state, setState] = useState(() => initialTableState(25, [{ id: 'id', desc: false }]));
  const [doomed, setDoomed] = useState<User | null>(null);
  const list = useQuery(usersListQueryOptions(state));
  const remove = useDeleteUser();

  const columns = useMemo<DataColumn<User>[]>(
    () => [
      { id: 'id', header: t('users.columns.id'), cell: (u) => u.id, sortable: true, width: 72 },
      { id: 'email', header: t('auth.fields.email'), cell: (u) => u.email, sortable: true },
      {
        id: 'first_name',
        header: t('auth.fields.firstName'),
        cell: (u) => u.first_name,
        sortable: true,
      },
      {
        id: 'last_name',
        header: t('auth.fields.lastName'),
        cell: (u) => u.last_name,
        sortable: true,
      },
      {
        id: 'role',
        header: t('account.role'),
        sortable: true,
        cell: (u) => {
          const key = roleLabelKey(u.role);
          return key === null ? u.role : t(key);
        },
      },
      {
        id: 'is_active',
        header: t('users.active'),
        sortable: true,
        cell: (u) => (
          <Chip
            size="small"
            color={u.is_active ? 'success' : 'default'}
            label={u.is_active ? t('common.yes') : t('common.no')}
          />
        ),
      },
      {
        id: 'created_at',
        header: t('users.columns.created'),
        cell: (u) => <DateText value={u.created_at} />,
        sortable: true,
      },
      {
        id: 'actions',
        header: t('users.columns.actions'),
        align: 'right',
        cell: (u) => (
          <>
            <IconButton
              component={RouterLink}
              to={`/admin/users/edit/${u.id}`}
              aria-label={t('users.edit', { email: u.email })}
              size="small"
            >
              <EditIcon fontSize="small" />
            </IconButton>
            <IconButton
              aria-label={t('users.delete', { email: u.email })}
              size="small"
              onClick={() => setDoomed(u)}
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          </>
        ),
      },
    ],
    [t],
  );

  const confirmDelete = async (user: User) => {
    setDoomed(null);
    try {
      await withProgress({ progress: 'users.deleting', success: 'users.deleted' }, () =>
        remove.mutateAsync(user.id),
      );
    } catch (failure) {
      notifyApiError(failure);
    }
  };

  return (
    <PageShell
      title={t('users.title')}
      actions={
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          component={RouterLink}
          to="/admin/users/create"
        >
          {t('users.create')}
        </Button>
      }
    >
      <DataTable
        label={t('users.title')}
        columns={columns}
        rows={list.data?.data ?? []}
        total={list.data?.recordsTotal ?? 0}
        getRowId={(u) => String(u.id)}
        state={state}
        onStateChange={setState}
        {...tableQueryStatus(list, t)}
      />
      <ConfirmDialog
        open={doomed !== null}
        title={t('users.deleteTitle')}
        body={t('users.deleteBody', { email: doomed?.email ?? '' })}
        confirmLabel={t('common.delete')}
        onCancel={() => setDoomed(null)}
        onConfirm={() => doomed !== null && void confirmDelete(doomed)}
      />
    </PageShell>
  );
}

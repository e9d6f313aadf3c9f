import { useCallback, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import AddIcon from '@mui/icons-material/Add';
import LockIcon from '@mui/icons-material/Lock';
import type { Policy } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import { localPage } from '../../../components/data-table/local-page';
import type { DataColumn } from '../../../components/data-table/types';
import { useConfirmedDelete } from '../../../components/page/useConfirmedDelete';
import { DateText } from '../../../components/page/DateText';
import { useOpenFromAddress } from '../../../components/page/useOpenFromAddress';
import { useDeletePolicy } from '../api/delete-policy';
import { policiesListKey, policiesListQueryOptions } from '../api/list-policies';
import { policyRenderKey } from '../api/render-policy';
import { VersionHistoryDialog } from '../../../components/version-history/VersionHistoryDialog';
import { PolicyActions, type PolicyAction } from './PolicyActions';
import { PolicyEditorDialog } from './PolicyEditorDialog';
import { PolicyPreviewDialog } from './PolicyPreviewDialog';
import { PolicyUploadDialog } from './PolicyUploadDialog';
import type { PolicyAccess, PolicyTools } from './tools';
import { tableQueryStatus } from '../../../components/data-table/query-status';

/** Policies: search, new policy, edit, preview, download, export, upload, delete. */
export function PoliciesTab({ tools, access }: { tools: PolicyTools; access: PolicyAccess }) {
  const { t } = useTranslation();
  const [state, setState] = useState(() => initialTableState(25, [{ id: 'name', desc: false }]));
  const [editing, setEditing] = useState<Policy | 'new' | null>(null);
  const [previewing, setPreviewing] = useState<Policy | null>(null);
  const [uploading, setUploading] = useState<Policy | null>(null);
  const [history, setHistory] = useState<Policy | null>(null);
  const list = useQuery(policiesListQueryOptions);
  // `?policy=7` (an expiring override's link) opens that policy's editor once the list is read.
  const loaded = list.data?.data;
  useOpenFromAddress(
    'policy',
    useCallback(
      (id: number) => {
        if (loaded === undefined) return false;
        const policy = loaded.find((p) => p.id === id);
        if (policy !== undefined) setEditing(policy);
        return true;
      },
      [loaded],
    ),
  );
  const remove = useDeletePolicy();
  const { ask: askToDelete, dialog: deleteDialog } = useConfirmedDelete<Policy>(
    {
      title: 'policies.deleteTitle',
      body: 'policies.deleteBody',
      deleting: 'policies.notices.deleting',
      deleted: 'policies.notices.deleted',
    },
    (id) => remove.mutateAsync(id),
  );

  const columns = useMemo<DataColumn<Policy>[]>(() => {
    const onAction = (action: PolicyAction, policy: Policy) => {
      switch (action) {
        case 'edit':
          return setEditing(policy);
        case 'preview':
          return setPreviewing(policy);
        case 'history':
          return setHistory(policy);
        case 'upload':
          return setUploading(policy);
        case 'delete':
          return askToDelete(policy);
      }
    };
    return [
      {
        id: 'name',
        header: t('policies.name'),
        sortable: true,
        cell: (p) => (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <span>{p.name}</span>
            {p.restricted && (
              <Tooltip title={t('policies.access.restricted')}>
                <LockIcon
                  fontSize="small"
                  color="action"
                  aria-label={t('policies.access.restricted')}
                />
              </Tooltip>
            )}
          </Stack>
        ),
      },
      {
        id: 'groups',
        header: t('policies.groups'),
        cell: (p) => (
          <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap' }}>
            {p.groups.slice(0, 4).map((g) => (
              <Chip key={g.id} size="small" label={g.name} />
            ))}
            {p.groups.length > 4 && <Chip size="small" label={`+${p.groups.length - 4}`} />}
          </Stack>
        ),
      },
      {
        id: 'rule_count',
        header: t('policies.ruleCount'),
        cell: (p) =>
          p.removed_count > 0 ? (
            <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
              <Chip
                size="small"
                color="warning"
                label={t('policies.removedChip', { n: p.removed_count })}
                title={t('policies.removedRules', { n: p.removed_count })}
              />
              <span>{p.rule_count}</span>
            </Stack>
          ) : (
            p.rule_count
          ),
        sortable: true,
        align: 'right',
        width: 100,
      },
      {
        id: 'overrides',
        header: t('policies.overrideCount'),
        cell: (p) => p.overrides.length,
        align: 'right',
        width: 100,
      },
      {
        id: 'version',
        header: t('policies.version'),
        cell: (p) => p.version,
        sortable: true,
        width: 90,
      },
      {
        id: 'updated_at',
        header: t('groups.updated'),
        cell: (p) => <DateText value={p.updated_at} />,
        sortable: true,
        width: 140,
      },
      {
        id: 'actions',
        header: t('rules.columns.actions'),
        align: 'right',
        width: 140,
        cell: (p) => <PolicyActions policy={p} onAction={onAction} />,
      },
    ];
  }, [t, askToDelete]);

  const page = localPage(list.data?.data ?? [], state, (p) => [
    p.name,
    p.description,
    ...p.groups.map((g) => g.name),
  ]);
  return (
    <>
      {access.canWrite && (
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          sx={{ mb: 2 }}
          onClick={() => setEditing('new')}
        >
          {t('policies.create')}
        </Button>
      )}
      <DataTable
        label={t('policies.title')}
        columns={columns}
        rows={page.rows}
        total={page.total}
        getRowId={(p) => String(p.id)}
        state={state}
        onStateChange={setState}
        {...tableQueryStatus(list, t)}
        emptyText={state.search === '' ? t('policies.empty') : t('table.noData')}
      />
      <PolicyEditorDialog
        open={editing !== null}
        policy={editing === 'new' || editing === null ? undefined : editing}
        tools={tools}
        access={access}
        onClose={() => setEditing(null)}
      />
      <PolicyPreviewDialog policy={previewing} onClose={() => setPreviewing(null)} />
      <PolicyUploadDialog policy={uploading} onClose={() => setUploading(null)} />
      <VersionHistoryDialog
        open={history !== null}
        name={history?.name ?? ''}
        base={`policies/${history?.id ?? 0}`}
        canRollBack={history?.can_edit === true}
        invalidate={[policiesListKey, policyRenderKey(history?.id ?? 0)]}
        onClose={() => setHistory(null)}
      />
      {deleteDialog}
    </>
  );
}

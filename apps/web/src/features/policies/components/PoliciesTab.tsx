import { useCallback, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import LockIcon from '@mui/icons-material/Lock';
import type { Policy } from '@palisade/contract';
import type { DataColumn } from '../../../components/data-table/types';
import {
  ListTab,
  type AddressOpener,
  type ListTabActions,
} from '../../../components/list-tab/ListTab';
import type { ConfirmedDeleteTexts } from '../../../components/page/useConfirmedDelete';
import { DateText } from '../../../components/page/DateText';
import { useDeletePolicy } from '../api/delete-policy';
import { policiesListKey, policiesListQueryOptions } from '../api/list-policies';
import { policyRenderKey } from '../api/render-policy';
import { VersionHistoryDialog } from '../../../components/version-history/VersionHistoryDialog';
import { PolicyActions, type PolicyAction } from './PolicyActions';
import { PolicyEditorDialog } from './PolicyEditorDialog';
import { PolicyPreviewDialog } from './PolicyPreviewDialog';
import { PolicyUploadDialog } from './PolicyUploadDialog';
import type { PolicyAccess, PolicyTools } from './tools';

const openFromAddress: AddressOpener<Policy, Policy> = {
  // `?policy=7` (an expiring override's link) opens that policy's editor once the list is read.
  param: 'policy',
  resolve: (id, policies) => (policies === undefined ? 'wait' : policies.find((p) => p.id === id)),
};

const searchTexts = (p: Policy) => [p.name, p.description, ...p.groups.map((g) => g.name)];

/** Policies: search, new policy, edit, preview, download, export, upload, delete. */
export function PoliciesTab({ tools, access }: { tools: PolicyTools; access: PolicyAccess }) {
  const { t } = useTranslation();
  const [previewing, setPreviewing] = useState<Policy | null>(null);
  const [uploading, setUploading] = useState<Policy | null>(null);
  const [history, setHistory] = useState<Policy | null>(null);
  const list = useQuery(policiesListQueryOptions);
  const remove = useDeletePolicy();
  const columns = useCallback(
    ({ open, askToDelete }: ListTabActions<Policy, Policy>) => {
      const onAction = (action: PolicyAction, policy: Policy) => {
        switch (action) {
          case 'edit':
            return open(policy);
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
      return policyColumns(t, onAction);
    },
    [t],
  );
  return (
    <ListTab
      label={t('policies.title')}
      list={list}
      columns={columns}
      searchTexts={searchTexts}
      emptyText={t('policies.empty')}
      noMatchText={t('table.noData')}
      createLabel={access.canWrite ? t('policies.create') : undefined}
      createPlacement="start"
      deleteTexts={deleteTexts}
      remove={(id) => remove.mutateAsync(id)}
      openFromAddress={openFromAddress}
      editor={(editing, close) => (
        <PolicyEditorDialog
          open={editing !== null}
          policy={editing === 'new' || editing === null ? undefined : editing}
          tools={tools}
          access={access}
          onClose={close}
        />
      )}
    >
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
    </ListTab>
  );
}

const deleteTexts: ConfirmedDeleteTexts = {
  title: 'policies.deleteTitle',
  body: 'policies.deleteBody',
  deleting: 'policies.notices.deleting',
  deleted: 'policies.notices.deleted',
};

function policyColumns(
  t: TFunction,
  onAction: (action: PolicyAction, policy: Policy) => void,
): DataColumn<Policy>[] {
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
}

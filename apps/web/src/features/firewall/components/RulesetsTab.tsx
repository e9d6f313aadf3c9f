import { useCallback, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import VisibilityIcon from '@mui/icons-material/Visibility';
import type { FirewallRuleset } from '@palisade/contract';
import type { DataColumn } from '../../../components/data-table/types';
import {
  ListTab,
  type AddressOpener,
  type ListTabActions,
} from '../../../components/list-tab/ListTab';
import type { ConfirmedDeleteTexts } from '../../../components/page/useConfirmedDelete';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { DateText } from '../../../components/page/DateText';
import { VersionHistoryDialog } from '../../../components/version-history/VersionHistoryDialog';
import { useDeleteRuleset } from '../api/delete-ruleset';
import { rulesetQueryOptions } from '../api/get-ruleset';
import { rulesetsListKey, rulesetsListQueryOptions } from '../api/list-rulesets';
import { ACTION_KEY } from './labels';
import { RulesetEditor } from './RulesetEditor';

const searchTexts = (r: FirewallRuleset) => [r.name, r.description];

const openFromAddress: AddressOpener<FirewallRuleset, number> = {
  // `?ruleset=7` (an expiring rule's link) opens that ruleset's editor, the list not needed.
  param: 'ruleset',
  resolve: (id) => id,
};

/** Firewall rulesets: list with search, editor, delete. */
export function RulesetsTab({
  canWrite,
  canOverrideLockout,
}: {
  canWrite: boolean;
  /** Administrator: may save a ruleset that would cut a device off. */
  canOverrideLockout: boolean;
}) {
  const { t } = useTranslation();
  const [history, setHistory] = useState<FirewallRuleset | null>(null);
  const list = useQuery(rulesetsListQueryOptions);
  const remove = useDeleteRuleset();
  const columns = useCallback(
    (actions: ListTabActions<FirewallRuleset, number>) =>
      rulesetColumns({ t, canWrite, actions, showHistory: setHistory }),
    [t, canWrite],
  );
  return (
    <ListTab
      label={t('firewall.rulesets.title')}
      list={list}
      columns={columns}
      searchTexts={searchTexts}
      emptyText={t('firewall.rulesets.empty')}
      height="calc(100vh - 380px)"
      createLabel={canWrite ? t('firewall.rulesets.create') : undefined}
      deleteTexts={deleteTexts}
      remove={(id) => remove.mutateAsync(id)}
      openFromAddress={openFromAddress}
      editor={(editing, close) => {
        if (editing === 'new')
          return (
            <RulesetEditor
              ruleset={null}
              readOnly={false}
              canOverrideLockout={canOverrideLockout}
              onClose={close}
            />
          );
        if (editing === null) return null;
        return (
          <LoadedEditor
            id={editing}
            readOnly={!canWrite}
            canOverrideLockout={canOverrideLockout}
            onClose={close}
          />
        );
      }}
    >
      <VersionHistoryDialog
        open={history !== null}
        name={history?.name ?? ''}
        base={`fwruleset/${history?.id ?? 0}`}
        canRollBack={canWrite}
        canOverrideLockout={canOverrideLockout}
        invalidate={[rulesetsListKey]}
        onClose={() => setHistory(null)}
      />
    </ListTab>
  );
}

const deleteTexts: ConfirmedDeleteTexts = {
  title: 'firewall.rulesets.deleteTitle',
  body: 'firewall.rulesets.deleteBody',
  deleting: 'firewall.notices.deleting',
  deleted: 'firewall.notices.deleted',
  conflict: 'firewall.notices.inUse',
};

function rulesetColumns({
  t,
  canWrite,
  actions,
  showHistory,
}: {
  t: TFunction;
  canWrite: boolean;
  actions: ListTabActions<FirewallRuleset, number>;
  showHistory: (ruleset: FirewallRuleset) => void;
}): DataColumn<FirewallRuleset>[] {
  return [
    {
      id: 'name',
      header: t('firewall.rulesets.name'),
      sortable: true,
      cell: (r) => (
        <>
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {r.name}
          </Typography>
          {r.description !== '' && (
            <Typography variant="caption" color="text.secondary">
              {r.description}
            </Typography>
          )}
        </>
      ),
    },
    {
      id: 'rules',
      header: t('firewall.rulesets.ruleCount'),
      align: 'right',
      width: 96,
      cell: (r) => r.rules.length,
    },
    {
      id: 'policies',
      header: t('firewall.rulesets.policies'),
      cell: (r) =>
        t('firewall.rulesets.policySummary', {
          input: t(ACTION_KEY[r.policies.input]),
          forward: t(ACTION_KEY[r.policies.forward]),
          output: t(ACTION_KEY[r.policies.output]),
        }),
    },
    {
      id: 'device_count',
      header: t('firewall.rulesets.devices'),
      sortable: true,
      align: 'right',
      width: 96,
      cell: (r) => r.device_count,
    },
    {
      id: 'updated_at',
      header: t('firewall.rulesets.updated'),
      sortable: true,
      width: 140,
      cell: (r) => <DateText value={r.updated_at} />,
    },
    {
      id: 'actions',
      header: t('firewall.rulesets.actions'),
      align: 'right',
      width: 144,
      cell: (r) => (
        <>
          {canWrite ? (
            <>
              <IconButton
                size="small"
                aria-label={t('firewall.rulesets.edit', { name: r.name })}
                onClick={() => actions.open(r.id)}
              >
                <EditIcon fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={t('firewall.rulesets.delete', { name: r.name })}
                onClick={() => actions.askToDelete(r)}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </>
          ) : (
            <IconButton
              size="small"
              aria-label={t('firewall.rulesets.view', { name: r.name })}
              onClick={() => actions.open(r.id)}
            >
              <VisibilityIcon fontSize="small" />
            </IconButton>
          )}
          <IconButton
            size="small"
            aria-label={t('versions.historyOf', { name: r.name })}
            onClick={() => showHistory(r)}
          >
            <HistoryIcon fontSize="small" />
          </IconButton>
        </>
      ),
    },
  ];
}

/** Reads the ruleset (GET /fwruleset/{id}) before the editor opens on it. */
function LoadedEditor({
  id,
  readOnly,
  canOverrideLockout,
  onClose,
}: {
  id: number;
  readOnly: boolean;
  canOverrideLockout: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const one = useQuery(rulesetQueryOptions(id));
  if (one.isSuccess && !one.isFetching)
    return (
      <RulesetEditor
        ruleset={one.data}
        readOnly={readOnly}
        canOverrideLockout={canOverrideLockout}
        onClose={onClose}
      />
    );
  const message = one.isError ? apiErrorMessage(one.error) : null;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogContent>
        {message === null ? (
          <>
            <Typography sx={{ mb: 2 }}>{t('common.loading')}</Typography>
            <LinearProgress />
          </>
        ) : (
          <Typography color="error">{errorText(message, t)}</Typography>
        )}
      </DialogContent>
      <DialogActions>
        {one.isError && <Button onClick={() => void one.refetch()}>{t('common.retry')}</Button>}
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

import { useMemo, useState, type ComponentType } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import ListIcon from '@mui/icons-material/List';
import type { RuleGroup } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import { localPage } from '../../../components/data-table/local-page';
import type { DataColumn } from '../../../components/data-table/types';
import { useConfirmedDelete } from '../../../components/page/useConfirmedDelete';
import { DateText } from '../../../components/page/DateText';
import { useDeleteGroup } from '../api/delete-group';
import { groupsListQueryOptions } from '../api/list-groups';
import { GroupDialog } from './GroupDialog';
import { GroupRulesDialog } from './GroupRulesDialog';
import { tableQueryStatus } from '../../../components/data-table/query-status';

interface GroupsTabProps {
  canWrite: boolean;
  /** The name of the rule source that keeps a group (the sources feature knows them). */
  sourceName: (sourceId: number) => string | undefined;
  /** Shown with a rule's text: what a rule source update changed in it. */
  RuleNote?: ComponentType<{ gid: number; sid: number }>;
}

/** Rule groups: list, search, create, rename, their rules, delete. */
export function GroupsTab({ canWrite, sourceName, RuleNote }: GroupsTabProps) {
  const { t } = useTranslation();
  const [state, setState] = useState(() => initialTableState(25, [{ id: 'name', desc: false }]));
  const [editing, setEditing] = useState<RuleGroup | 'new' | null>(null);
  const [viewing, setViewing] = useState<RuleGroup | null>(null);
  const list = useQuery(groupsListQueryOptions);
  const remove = useDeleteGroup();
  const { ask: askToDelete, dialog: deleteDialog } = useConfirmedDelete<RuleGroup>(
    {
      title: 'groups.deleteTitle',
      body: 'groups.deleteBody',
      deleting: 'groups.notices.deleting',
      deleted: 'groups.notices.deleted',
      conflict: 'groups.inUse',
    },
    (id) => remove.mutateAsync(id),
  );

  const columns = useMemo<DataColumn<RuleGroup>[]>(
    () => [
      { id: 'name', header: t('groups.name'), cell: (g) => g.name, sortable: true },
      {
        id: 'kind',
        header: t('groups.kind'),
        sortable: true,
        width: 110,
        cell: (g) => (
          <Chip
            size="small"
            variant="outlined"
            label={g.kind === 'file' ? t('groups.kindFile') : t('groups.kindCustom')}
          />
        ),
      },
      {
        id: 'source',
        header: t('groups.source'),
        width: 160,
        hideBelow: 800,
        cell: (g) => (g.source_id === null ? '' : (sourceName(g.source_id) ?? `#${g.source_id}`)),
      },
      { id: 'description', header: t('groups.description'), cell: (g) => g.description },
      {
        id: 'rule_count',
        header: t('groups.ruleCount'),
        cell: (g) => g.rule_count,
        sortable: true,
        align: 'right',
        width: 100,
      },
      {
        id: 'enabled_count',
        header: t('groups.enabledCount'),
        cell: (g) => g.enabled_count,
        sortable: true,
        align: 'right',
        width: 110,
      },
      {
        id: 'updated_at',
        header: t('groups.updated'),
        cell: (g) => <DateText value={g.updated_at} />,
        sortable: true,
        width: 140,
      },
      {
        id: 'actions',
        header: t('rules.columns.actions'),
        align: 'right',
        width: 140,
        cell: (g) => (
          <>
            <Tooltip title={t('groups.showRules')}>
              <IconButton
                size="small"
                aria-label={t('groups.rulesOf', { name: g.name })}
                onClick={() => setViewing(g)}
              >
                <ListIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            {canWrite && (
              <>
                <Tooltip title={t('groups.rename')}>
                  <IconButton
                    size="small"
                    aria-label={t('groups.renameName', { name: g.name })}
                    onClick={() => setEditing(g)}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('common.delete')}>
                  <IconButton
                    size="small"
                    aria-label={t('groups.deleteName', { name: g.name })}
                    onClick={() => askToDelete(g)}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </>
            )}
          </>
        ),
      },
    ],
    [t, canWrite, askToDelete, sourceName],
  );

  const page = localPage(list.data?.data ?? [], state, (g) => [g.name, g.description, g.kind]);
  return (
    <>
      {canWrite && (
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          sx={{ mb: 2 }}
          onClick={() => setEditing('new')}
        >
          {t('groups.create')}
        </Button>
      )}
      <DataTable
        label={t('groups.title')}
        columns={columns}
        rows={page.rows}
        total={page.total}
        getRowId={(g) => String(g.id)}
        state={state}
        onStateChange={setState}
        {...tableQueryStatus(list, t)}
        emptyText={state.search === '' ? t('groups.empty') : t('table.noData')}
      />
      <GroupDialog
        open={editing !== null}
        group={editing === 'new' || editing === null ? undefined : editing}
        onClose={() => setEditing(null)}
      />
      <GroupRulesDialog
        group={viewing}
        canWrite={canWrite}
        RuleNote={RuleNote}
        onClose={() => setViewing(null)}
      />
      {deleteDialog}
    </>
  );
}

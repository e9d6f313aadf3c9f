import { useCallback, useState, type ComponentType } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import ListIcon from '@mui/icons-material/List';
import type { RuleGroup } from '@palisade/contract';
import type { DataColumn } from '../../../components/data-table/types';
import { ListTab, type ListTabActions } from '../../../components/list-tab/ListTab';
import type { ConfirmedDeleteTexts } from '../../../components/page/useConfirmedDelete';
import { DateText } from '../../../components/page/DateText';
import { useDeleteGroup } from '../api/delete-group';
import { groupsListQueryOptions } from '../api/list-groups';
import { GroupDialog } from './GroupDialog';
import { GroupRulesDialog } from './GroupRulesDialog';

interface GroupsTabProps {
  canWrite: boolean;
  /** The name of the rule source that keeps a group (the sources feature knows them). */
  sourceName: (sourceId: number) => string | undefined;
  /** Shown with a rule's text: what a rule source update changed in it. */
  RuleNote?: ComponentType<{ gid: number; sid: number }>;
}

const searchTexts = (g: RuleGroup) => [g.name, g.description, g.kind];

/** Rule groups: list, search, create, rename, their rules, delete. */
export function GroupsTab({ canWrite, sourceName, RuleNote }: GroupsTabProps) {
  const { t } = useTranslation();
  const [viewing, setViewing] = useState<RuleGroup | null>(null);
  const list = useQuery(groupsListQueryOptions);
  const remove = useDeleteGroup();
  const columns = useCallback(
    (actions: ListTabActions<RuleGroup, RuleGroup>) =>
      groupColumns({ t, canWrite, sourceName, actions, showRules: setViewing }),
    [t, canWrite, sourceName],
  );
  return (
    <ListTab
      label={t('groups.title')}
      list={list}
      columns={columns}
      searchTexts={searchTexts}
      emptyText={t('groups.empty')}
      noMatchText={t('table.noData')}
      createLabel={canWrite ? t('groups.create') : undefined}
      createPlacement="start"
      deleteTexts={deleteTexts}
      remove={(id) => remove.mutateAsync(id)}
      editor={(editing, close) => (
        <GroupDialog
          open={editing !== null}
          group={editing === 'new' || editing === null ? undefined : editing}
          onClose={close}
        />
      )}
    >
      <GroupRulesDialog
        group={viewing}
        canWrite={canWrite}
        RuleNote={RuleNote}
        onClose={() => setViewing(null)}
      />
    </ListTab>
  );
}

const deleteTexts: ConfirmedDeleteTexts = {
  title: 'groups.deleteTitle',
  body: 'groups.deleteBody',
  deleting: 'groups.notices.deleting',
  deleted: 'groups.notices.deleted',
  conflict: 'groups.inUse',
};

function groupColumns({
  t,
  canWrite,
  sourceName,
  actions,
  showRules,
}: {
  t: TFunction;
  canWrite: boolean;
  sourceName: (sourceId: number) => string | undefined;
  actions: ListTabActions<RuleGroup, RuleGroup>;
  showRules: (group: RuleGroup) => void;
}): DataColumn<RuleGroup>[] {
  return [
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
              onClick={() => showRules(g)}
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
                  onClick={() => actions.open(g)}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title={t('common.delete')}>
                <IconButton
                  size="small"
                  aria-label={t('groups.deleteName', { name: g.name })}
                  onClick={() => actions.askToDelete(g)}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </>
          )}
        </>
      ),
    },
  ];
}

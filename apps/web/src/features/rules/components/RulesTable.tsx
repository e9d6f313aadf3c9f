import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import EditIcon from '@mui/icons-material/Edit';
import SubjectIcon from '@mui/icons-material/Subject';
import type { RuleSummary } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import type { DataColumn } from '../../../components/data-table/types';
import { RULES_PAGE_SIZE, rulesListQueryOptions } from '../api/list-rules';
import { tableQueryStatus } from '../../../components/data-table/query-status';

export interface RuleSelection {
  isSelected: (rule: RuleSummary) => boolean;
  toggle: (rules: RuleSummary[], on: boolean) => void;
}

interface RulesTableProps {
  label: string;
  /** Field filter terms sent with the search, e.g. `group_id:3`. */
  terms?: string[];
  selection?: RuleSelection;
  onShowText: (rule: RuleSummary) => void;
  onEdit?: (rule: RuleSummary) => void;
  height?: number | string;
  /** Drawn above the table with the shown page's rows (e.g. "select the page"). */
  toolbar?: (rows: RuleSummary[]) => ReactNode;
  emptyText?: string;
  /** Keep the pages in the rules cache by sid (the main rules list does). */
  cached?: boolean;
}

/** The rules list: 5000 a page by default, virtualised, searched and sorted by the server. */
export function RulesTable(props: RulesTableProps) {
  const { label, terms, selection, onShowText, onEdit, height, toolbar, emptyText, cached } = props;
  const { t } = useTranslation();
  const [state, setState] = useState(() =>
    initialTableState(RULES_PAGE_SIZE, [{ id: 'sid', desc: false }]),
  );
  const list = useQuery(rulesListQueryOptions(state, terms, cached));
  const rows = useMemo(() => list.data?.data ?? [], [list.data]);

  const columns = useRuleColumns(selection, onShowText, onEdit);

  return (
    <Box sx={{ '& .MuiTableCell-root': { px: 1 } }}>
      {toolbar?.(rows)}
      <DataTable
        label={label}
        columns={columns}
        rows={rows}
        total={list.data?.recordsTotal ?? 0}
        getRowId={(r) => String(r.id)}
        state={state}
        onStateChange={setState}
        {...tableQueryStatus(list, t)}
        emptyText={emptyText ?? t('rules.empty')}
        searchHint={t('rules.searchHint')}
        height={height}
        rowHeight={44}
      />
    </Box>
  );
}

/**
 * The rules table's columns: selection, sid, action, protocol, message, classtype, state and the
 * text/edit actions. Also drawn by the table benchmark page, so that it measures these rows.
 */
export function useRuleColumns(
  selection: RuleSelection | undefined,
  onShowText: (rule: RuleSummary) => void,
  onEdit: ((rule: RuleSummary) => void) | undefined,
): DataColumn<RuleSummary>[] {
  const { t } = useTranslation();
  return useMemo<DataColumn<RuleSummary>[]>(() => {
    const all: DataColumn<RuleSummary>[] = [
      { id: 'sid', header: t('rules.columns.sid'), cell: (r) => r.sid, sortable: true, width: 88 },
      {
        id: 'action',
        header: t('rules.columns.action'),
        cell: (r) => r.action,
        sortable: true,
        width: 64,
      },
      {
        id: 'proto',
        header: t('rules.columns.proto'),
        cell: (r) => r.proto ?? '',
        sortable: true,
        width: 64,
      },
      {
        id: 'msg',
        header: t('rules.columns.msg'),
        cell: (r) => <OneLine text={r.msg} max="min(26vw, 640px)" />,
        sortable: true,
      },
      {
        id: 'classtype',
        header: t('rules.columns.classtype'),
        cell: (r) => <OneLine text={r.classtype ?? ''} max={150} />,
        sortable: true,
      },
      {
        id: 'enabled',
        header: t('rules.columns.state'),
        sortable: true,
        width: 100,
        cell: (r) => (
          <Stack direction="row" spacing={0.5}>
            <Chip
              size="small"
              color={r.enabled ? 'success' : 'default'}
              label={r.enabled ? t('rules.enabled') : t('rules.disabled')}
            />
            {r.removed && <Chip size="small" color="warning" label={t('rules.removed')} />}
          </Stack>
        ),
      },
      {
        id: 'actions',
        header: t('rules.columns.actions'),
        align: 'right',
        width: 104,
        cell: (r) => (
          <Box sx={{ whiteSpace: 'nowrap' }}>
            <Tooltip title={t('rules.showText')}>
              <IconButton
                size="small"
                aria-label={t('rules.showTextOf', { sid: r.sid })}
                onClick={() => onShowText(r)}
              >
                <SubjectIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            {onEdit !== undefined && (
              <Tooltip title={t('rules.edit')}>
                <IconButton
                  size="small"
                  aria-label={t('rules.editSid', { sid: r.sid })}
                  onClick={() => onEdit(r)}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
          </Box>
        ),
      },
    ];
    if (selection === undefined) return all;
    return [
      {
        id: 'select',
        header: '',
        width: 48,
        cell: (r) => (
          <Checkbox
            size="small"
            checked={selection.isSelected(r)}
            onChange={(event) => selection.toggle([r], event.target.checked)}
            slotProps={{ input: { 'aria-label': t('rules.selectSid', { sid: r.sid }) } }}
          />
        ),
      },
      ...all,
    ];
  }, [t, selection, onShowText, onEdit]);
}

/** Rows keep one fixed height (the table is virtualised): long texts end in an ellipsis. */
function OneLine({ text, max }: { text: string; max: number | string }) {
  return (
    <Box
      component="span"
      title={text}
      sx={{
        display: 'block',
        maxWidth: max,
        whiteSpace: 'nowrap',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
      }}
    >
      {text}
    </Box>
  );
}

import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import EditIcon from '@mui/icons-material/Edit';
import SubjectIcon from '@mui/icons-material/Subject';
import type { RuleSummary } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { DateText } from '../../../components/page/DateText';
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
    <Box sx={ruleCellStyles}>
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
        columnsKey="rules"
        height={height}
        rowHeight={44}
      />
    </Box>
  );
}

/**
 * The rules table's columns: selection, sid, action, protocol, message, classtype, the optional
 * source, destination, priority and update time (spec §3's rule fields), state and the
 * text/edit actions. Also drawn by the table benchmark page, so that it measures these rows.
 * Cells are plain elements styled once by `ruleCellStyles` on a wrapper (a 5000-rule page mounts
 * rows at every scroll step). The columns change only with the language, the selection and
 * whether rules can be edited, so rows that stay in view are not drawn again while scrolling.
 */
export function useRuleColumns(
  selection: RuleSelection | undefined,
  onShowText: (rule: RuleSummary) => void,
  onEdit: ((rule: RuleSummary) => void) | undefined,
): DataColumn<RuleSummary>[] {
  const { t } = useTranslation();
  // The handlers are read when clicked: new functions from the caller do not make new columns.
  const handlers = useRef({ onShowText, onEdit });
  useLayoutEffect(() => {
    handlers.current = { onShowText, onEdit };
  });
  const editable = onEdit !== undefined;
  return useMemo<DataColumn<RuleSummary>[]>(() => {
    const all: DataColumn<RuleSummary>[] = [
      {
        id: 'sid',
        header: t('rules.columns.sid'),
        // Generator 1 is the rule's own; others (3: Snort's shared objects) go before the sid.
        cell: (r) => (r.gid === 1 ? r.sid : `${r.gid}:${r.sid}`),
        sortable: true,
        width: 88,
      },
      {
        id: 'rev',
        header: t('rules.columns.rev'),
        cell: (r) => r.rev ?? '',
        sortable: true,
        width: 48,
      },
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
        cell: (r) => (
          <span className="rule-line rule-msg" title={r.msg}>
            {r.msg}
          </span>
        ),
        sortable: true,
      },
      {
        id: 'classtype',
        header: t('rules.columns.classtype'),
        cell: (r) => (
          <span className="rule-line rule-classtype" title={r.classtype ?? ''}>
            {r.classtype ?? ''}
          </span>
        ),
        sortable: true,
      },
      {
        id: 'src',
        header: t('rules.columns.srcAddr'),
        optional: 'hidden',
        cell: (r) => <RuleEndpoint addr={r.src_addr} port={r.src_port} />,
      },
      {
        id: 'dst',
        header: t('rules.columns.dstAddr'),
        optional: 'hidden',
        cell: (r) => <RuleEndpoint addr={r.dst_addr} port={r.dst_port} />,
      },
      {
        id: 'priority',
        header: t('rules.columns.priority'),
        optional: 'hidden',
        sortable: true,
        width: 80,
        cell: (r) => r.priority ?? '',
      },
      {
        id: 'updated_at',
        header: t('rules.columns.updatedAt'),
        optional: 'hidden',
        sortable: true,
        width: 110,
        cell: (r) => <DateText value={r.updated_at} />,
      },
      {
        id: 'enabled',
        header: t('rules.columns.state'),
        sortable: true,
        width: 100,
        cell: (r) => (
          <span className="rule-line">
            <span className={r.enabled ? 'rule-chip rule-chip-on' : 'rule-chip'}>
              {r.enabled ? t('rules.enabled') : t('rules.disabled')}
            </span>
            {r.removed && <span className="rule-chip rule-chip-removed">{t('rules.removed')}</span>}
          </span>
        ),
      },
      {
        id: 'actions',
        header: t('rules.columns.actions'),
        align: 'right',
        width: 104,
        cell: (r) => (
          <span className="rule-line">
            <button
              type="button"
              className="rule-action"
              title={t('rules.showText')}
              aria-label={t('rules.showTextOf', { sid: r.sid })}
              onClick={() => handlers.current.onShowText(r)}
            >
              <SubjectIcon fontSize="small" />
            </button>
            {editable && (
              <button
                type="button"
                className="rule-action"
                title={t('rules.edit')}
                aria-label={t('rules.editSid', { sid: r.sid })}
                onClick={() => handlers.current.onEdit?.(r)}
              >
                <EditIcon fontSize="small" />
              </button>
            )}
          </span>
        ),
      },
    ];
    return selection === undefined ? all : [selectColumn(t, selection), ...all];
  }, [t, editable, selection]);
}

/** The checkbox that picks a rule for a bulk action. */
function selectColumn(t: TFunction, selection: RuleSelection): DataColumn<RuleSummary> {
  return {
    id: 'select',
    header: '',
    width: 48,
    cell: (r) => (
      <input
        type="checkbox"
        className="rule-select"
        checked={selection.isSelected(r)}
        onChange={(event) => selection.toggle([r], event.target.checked)}
        aria-label={t('rules.selectSid', { sid: r.sid })}
      />
    ),
  };
}

/** A rule's address and port as its text has them (`$HOME_NET any`), left to right. */
function RuleEndpoint({ addr, port }: { addr: string | null; port: string | null }) {
  const text = [addr, port].filter((part) => part !== null).join(' ');
  return (
    <span className="rule-line rule-endpoint" dir="ltr" title={text}>
      {text}
    </span>
  );
}

/** The rules table's cell styles, set once on an element around the table. */
export const ruleCellStyles: SxProps<Theme> = (theme) => ({
  // `table td` outweighs the table's own cell padding.
  '& .MuiTableCell-root, & table td.data-cell': {
    paddingLeft: theme.spacing(1),
    paddingRight: theme.spacing(1),
  },
  // Rows keep one fixed height (the table is virtualised): long texts end in an ellipsis.
  '& .rule-line': {
    display: 'block',
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  },
  '& .rule-msg': { maxWidth: 'min(26vw, 640px)' },
  '& .rule-classtype': { maxWidth: 150 },
  '& .rule-endpoint': { maxWidth: 180, textAlign: 'start', fontFamily: 'monospace' },
  '& .rule-chip': {
    display: 'inline-block',
    height: 24,
    lineHeight: '24px',
    padding: '0 8px',
    marginInlineEnd: theme.spacing(0.5),
    borderRadius: '12px',
    fontSize: theme.typography.pxToRem(13),
    backgroundColor: theme.palette.action.selected,
    color: theme.palette.text.primary,
  },
  '& .rule-chip-on': {
    backgroundColor: theme.palette.success.main,
    color: theme.palette.success.contrastText,
  },
  '& .rule-chip-removed': {
    backgroundColor: theme.palette.warning.main,
    color: theme.palette.warning.contrastText,
  },
  '& .rule-action': {
    display: 'inline-flex',
    padding: '5px',
    border: 0,
    borderRadius: '50%',
    background: 'none',
    color: theme.palette.action.active,
    cursor: 'pointer',
    '&:hover': { backgroundColor: theme.palette.action.hover },
    '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}` },
  },
  '& .rule-select': {
    width: 18,
    height: 18,
    margin: 0,
    verticalAlign: 'middle',
    accentColor: theme.palette.primary.main,
    cursor: 'pointer',
  },
});

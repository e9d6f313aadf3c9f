import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { RuleSummary } from '@palisade/contract';
import { DataTable } from '../../components/data-table/DataTable';
import { initialTableState } from '../../components/data-table/list-params';
import { SortableTable, type SortedEvent } from '../../components/data-table/SortableTable';
import type { DataColumn } from '../../components/data-table/types';
import {
  ruleCellStyles,
  useRuleColumns,
  type RuleSelection,
} from '../../features/rules/components/RulesTable';
import { PageShell } from '../../components/page/PageShell';
import { MuiProviders } from '../../components/theme/MuiProviders';

/** Generated rows for the table benchmark (bench.html; never in the production build). */
interface BenchRow {
  id: number;
  sid: number;
  msg: string;
  proto: string;
}

const PROTOCOLS = ['tcp', 'udp', 'icmp', 'http', 'dns', 'tls'];
const makeRows = (count: number): BenchRow[] =>
  Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    sid: 2_000_000 + i,
    msg: `ET SAMPLE rule number ${i + 1}`,
    proto: PROTOCOLS[i % PROTOCOLS.length] ?? 'tcp',
  }));

/** The same rows as rules, drawn with the rules table's own columns (checkbox, chips, actions). */
const asRules = (rows: BenchRow[]): RuleSummary[] =>
  rows.map((row) => ({
    id: row.id,
    gid: 1,
    sid: row.sid,
    rev: 1,
    action: row.id % 7 === 0 ? 'drop' : 'alert',
    proto: row.proto,
    src_addr: '$HOME_NET',
    src_port: 'any',
    direction: '->',
    dst_addr: '$EXTERNAL_NET',
    dst_port: 'any',
    msg: row.msg,
    classtype: 'trojan-activity',
    priority: 1,
    enabled: row.id % 5 !== 0,
    removed: row.id % 97 === 0,
    source: 'emerging-sample.rules',
    groups: ['emerging-sample'],
    updated_at: '2026-11-22T00:00:00Z',
  }));

const noop = () => undefined;

/** The table benchmark page: a 5000-row page of the rules table's rows, and a small drag-sortable table. */
export function Component() {
  return (
    <MuiProviders>
      <BenchTable />
    </MuiProviders>
  );
}

function BenchTable() {
  const { t } = useTranslation();
  const rows = useMemo(() => asRules(makeRows(5000)), []);
  const few = useMemo(() => makeRows(5), []);
  const [state, setState] = useState(() => initialTableState(5000));
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const selection = useMemo<RuleSelection>(
    () => ({
      isSelected: (rule) => selected.has(rule.id),
      toggle: (changed, on) =>
        setSelected((now) => {
          const next = new Set(now);
          for (const rule of changed) {
            if (on) next.add(rule.id);
            else next.delete(rule.id);
          }
          return next;
        }),
    }),
    [selected],
  );
  const ruleColumns = useRuleColumns(selection, noop, noop);
  const [sorted, setSorted] = useState('');
  const columns = useMemo<DataColumn<BenchRow>[]>(
    () => [
      { id: 'id', header: 'id', cell: (r) => r.id, width: 80 },
      { id: 'sid', header: 'sid', cell: (r) => r.sid, width: 120 },
      { id: 'msg', header: 'msg', cell: (r) => r.msg },
      { id: 'proto', header: 'proto', cell: (r) => r.proto, width: 100 },
    ],
    [],
  );
  useEffect(() => {
    performance.mark('bench-table-mounted');
  }, []);
  const onSorted = ({ order, from, to }: SortedEvent<BenchRow>) =>
    setSorted(`${from}→${to}: ${order.map((r) => r.id).join(',')}`);
  return (
    <PageShell title={t('table.benchTitle')}>
      <Box sx={ruleCellStyles}>
        <DataTable
          label={t('table.benchTitle')}
          columns={ruleColumns}
          rows={rows}
          total={rows.length}
          getRowId={(r) => String(r.id)}
          state={state}
          onStateChange={setState}
          searchable={false}
          height={480}
          rowHeight={44}
        />
      </Box>
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
        {t('table.sortableTitle')}
      </Typography>
      <SortableTable
        label={t('table.sortableTitle')}
        columns={columns}
        rows={few}
        getRowId={(r) => String(r.id)}
        onSorted={onSorted}
      />
      <Typography data-testid="sorted-event" sx={{ mt: 1 }}>
        {sorted}
      </Typography>
    </PageShell>
  );
}

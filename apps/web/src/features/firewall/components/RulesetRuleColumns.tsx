import type { TFunction } from 'i18next';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import type { FirewallRule, FirewallRuleHits } from '@palisade/contract';
import type { DataColumn } from '../../../components/data-table/types';
import { ExpiresChip } from '../../../components/expiry/ExpiresChip';
import { ActionChip, ChainCell, Endpoint, MatchCell } from './RuleCells';
import { HitsCell } from './RuleHits';

/** A row of the ruleset editor's table: the rule at `index`, `key` its form field's id. */
export interface RuleRow {
  key: string;
  index: number;
  rule: FirewallRule;
}

/** What the rows' buttons change in the form. */
export interface RuleRowEdits {
  edit: (index: number) => void;
  update: (index: number, rule: FirewallRule) => void;
  insert: (index: number, rule: FirewallRule) => void;
  remove: (index: number) => void;
}

export interface RuleColumnsOptions {
  t: TFunction;
  readOnly: boolean;
  /** The server's complaint about a rule, by its index. */
  problems: ReadonlyMap<number, string>;
  /** A row's hits; no column for a new ruleset, which has none. */
  hitsOf: ((row: RuleRow) => FirewallRuleHits | undefined) | null;
  edits: RuleRowEdits;
}

/** The ruleset editor's columns: position, on/off, what a rule matches, its buttons. */
export function ruleColumns({
  t,
  readOnly,
  problems,
  hitsOf,
  edits,
}: RuleColumnsOptions): DataColumn<RuleRow>[] {
  return [
    {
      id: 'position',
      header: '#',
      width: 40,
      cell: (row) => (
        <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5 }}>
          {row.index + 1}
          {problems.has(row.index) && (
            <ErrorOutlineIcon
              color="error"
              fontSize="small"
              titleAccess={problems.get(row.index)}
            />
          )}
        </Stack>
      ),
    },
    {
      id: 'enabled',
      header: t('firewall.rule.enabled'),
      width: 72,
      cell: (row) => (
        <Switch
          size="small"
          checked={row.rule.enabled}
          disabled={readOnly}
          onChange={(event) =>
            edits.update(row.index, { ...row.rule, enabled: event.target.checked })
          }
          slotProps={{
            input: { 'aria-label': t('firewall.rule.enableRule', { position: row.index + 1 }) },
          }}
        />
      ),
    },
    { id: 'chain', header: t('firewall.rule.chain'), cell: (row) => <ChainCell rule={row.rule} /> },
    {
      id: 'action',
      header: t('firewall.rule.action'),
      cell: (row) => <ActionChip rule={row.rule} />,
    },
    {
      id: 'source',
      header: t('firewall.rule.source'),
      cell: (row) => <Endpoint addresses={row.rule.source} ports={row.rule.source_ports} />,
    },
    {
      id: 'destination',
      header: t('firewall.rule.destination'),
      cell: (row) => (
        <Endpoint addresses={row.rule.destination} ports={row.rule.destination_ports} />
      ),
    },
    { id: 'match', header: t('firewall.rule.match'), cell: (row) => <MatchCell rule={row.rule} /> },
    ...(hitsOf === null
      ? []
      : [
          {
            id: 'hits',
            header: t('firewall.hits.header'),
            cell: (row: RuleRow) => <HitsCell hits={hitsOf(row)} />,
          },
        ]),
    {
      id: 'comment',
      header: t('firewall.rule.comment'),
      cell: (row) => (
        <>
          <Typography variant="body2" data-testid="rule-comment">
            {row.rule.comment}
          </Typography>
          <ExpiresChip expiresAt={row.rule.expires_at} reason={row.rule.reason} />
          {problems.has(row.index) && (
            <Typography variant="caption" color="error" data-testid="rule-problem">
              {problems.get(row.index)}
            </Typography>
          )}
        </>
      ),
    },
    {
      id: 'actions',
      header: '',
      align: 'right',
      width: 132,
      cell: (row) => (readOnly ? null : <RuleRowButtons row={row} t={t} edits={edits} />),
    },
  ];
}

function RuleRowButtons({ row, t, edits }: { row: RuleRow; t: TFunction; edits: RuleRowEdits }) {
  const position = row.index + 1;
  return (
    <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
      <IconButton
        size="small"
        aria-label={t('firewall.rule.edit', { position })}
        onClick={() => edits.edit(row.index)}
      >
        <EditIcon fontSize="small" />
      </IconButton>
      <IconButton
        size="small"
        aria-label={t('firewall.rule.duplicate', { position })}
        onClick={() => edits.insert(row.index + 1, { ...row.rule, states: [...row.rule.states] })}
      >
        <ContentCopyIcon fontSize="small" />
      </IconButton>
      <IconButton
        size="small"
        aria-label={t('firewall.rule.remove', { position })}
        onClick={() => edits.remove(row.index)}
      >
        <DeleteIcon fontSize="small" />
      </IconButton>
    </Stack>
  );
}

import { Fragment, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import type { AlertFilters } from '@palisade/contract';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format-date';
import {
  alertGroupsByQueryOptions,
  type AlertGroupByRow,
  type Grouping,
} from '../api/alert-groups-by';
import type { PivotField } from '../filters';
import { SignatureGroupsTable } from './SignatureGroupsTable';
import { Sparkline } from '../../../components/charts/Sparkline';

/** The groupings offered: by signature (its own table), source, destination, device, or two-level. */
export const GROUPINGS = [
  'signature',
  'source',
  'destination',
  'device',
  'signature_source',
] as const;
export type GroupView = (typeof GROUPINGS)[number];
export const isGroupView = (value: string | null): value is GroupView =>
  value !== null && (GROUPINGS as readonly string[]).includes(value);

const LABELS = {
  signature: 'alerts.grouping.signature',
  source: 'alerts.grouping.source',
  destination: 'alerts.grouping.destination',
  device: 'alerts.grouping.device',
  signature_source: 'alerts.grouping.signatureSource',
} as const satisfies Record<GroupView, string>;

/** What a group filters the list on: pivots applied one after the other. */
export type GroupPivots = [PivotField, string][];

/** The group's key as shown, and the pivots that show its alerts (none for a missing value). */
function describe(group: AlertGroupByRow, by: Grouping): { key: string; pivots: GroupPivots } {
  const signature: GroupPivots = group.sid === null ? [] : [['sid', String(group.sid)]];
  const source: GroupPivots = group.src_ip === null ? [] : [['src_ip', group.src_ip]];
  switch (by) {
    case 'signature':
      return {
        key: group.msg ?? (group.sid === null ? '–' : String(group.sid)),
        pivots: signature,
      };
    case 'source':
      return { key: group.src_ip ?? '–', pivots: source };
    case 'destination':
      return {
        key: group.dest_ip ?? '–',
        pivots: group.dest_ip === null ? [] : [['dest_ip', group.dest_ip]],
      };
    case 'device':
      return {
        key: group.device ?? String(group.device_id),
        pivots: group.device_id === null ? [] : [['device', String(group.device_id)]],
      };
  }
}

interface AlertGroupsViewProps {
  filters: AlertFilters;
  /** The grouping shown (kept in the page's URL). */
  by: GroupView;
  onByChange: (by: GroupView) => void;
  onShowSignature: (sid: number) => void;
  /** Shows the list filtered to one group. */
  onOpenGroup: (pivots: GroupPivots) => void;
}

/**
 * The grouped view: by signature (with its own table), by source, destination or device, or
 * two-level: signatures that expand to their sources. A group's row opens its alerts.
 */
export function AlertGroupsView({
  filters,
  by,
  onByChange,
  onShowSignature,
  onOpenGroup,
}: AlertGroupsViewProps) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        select
        size="small"
        label={t('alerts.grouping.label')}
        value={by}
        onChange={(event) => onByChange(event.target.value as GroupView)}
        sx={{ mb: 2, minWidth: 240 }}
      >
        {GROUPINGS.map((option) => (
          <MenuItem key={option} value={option}>
            {t(LABELS[option])}
          </MenuItem>
        ))}
      </TextField>
      {by === 'signature' ? (
        <SignatureGroupsTable filters={filters} onShowSignature={onShowSignature} />
      ) : (
        <GroupsByTable filters={filters} by={by} onOpenGroup={onOpenGroup} />
      )}
    </>
  );
}

function GroupsByTable({
  filters,
  by,
  onOpenGroup,
}: {
  filters: AlertFilters;
  by: Exclude<GroupView, 'signature'>;
  onOpenGroup: (pivots: GroupPivots) => void;
}) {
  const { t } = useTranslation();
  const twoLevel = by === 'signature_source';
  const groups = useQuery(alertGroupsByQueryOptions(filters, twoLevel ? 'signature' : by));
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  if (groups.isError)
    return <Alert severity="error">{errorText(apiErrorMessage(groups.error), t)}</Alert>;
  const rows = groups.data?.data ?? [];
  const toggle = (sid: number) =>
    setExpanded((previous) => {
      const next = new Set(previous);
      if (!next.delete(sid)) next.add(sid);
      return next;
    });
  return (
    <Table size="small" aria-label={t(LABELS[by])}>
      <TableHead>
        <TableRow>
          {twoLevel && <TableCell padding="checkbox" />}
          <TableCell>{t(LABELS[by])}</TableCell>
          <TableCell align="right">{t('alerts.groups.count')}</TableCell>
          <TableCell>{t('alerts.groups.firstSeen')}</TableCell>
          <TableCell>{t('alerts.groups.lastSeen')}</TableCell>
          <TableCell>{t('alerts.grouping.trend')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.length === 0 && !groups.isPending && (
          <TableRow>
            <TableCell colSpan={twoLevel ? 6 : 5}>{t('alerts.empty')}</TableCell>
          </TableRow>
        )}
        {rows.map((group) => {
          const rowKey = `${group.sid}/${group.src_ip}/${group.dest_ip}/${group.device_id}`;
          if (!twoLevel)
            return <GroupRow key={rowKey} group={group} by={by} onOpenGroup={onOpenGroup} />;
          const sid = group.sid;
          const open = sid !== null && expanded.has(sid);
          return (
            <Fragment key={rowKey}>
              <GroupRow
                group={group}
                by="signature"
                onOpenGroup={onOpenGroup}
                expander={{
                  open,
                  // Alerts without a signature id cannot be asked for by signature.
                  disabled: sid === null,
                  onToggle: () => sid !== null && toggle(sid),
                }}
              />
              {open && <SignatureSources filters={filters} sid={sid} onOpenGroup={onOpenGroup} />}
            </Fragment>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** A signature's sources, asked for when its row is expanded. */
function SignatureSources({
  filters,
  sid,
  onOpenGroup,
}: {
  filters: AlertFilters;
  sid: number;
  onOpenGroup: (pivots: GroupPivots) => void;
}) {
  const { t } = useTranslation();
  const sources = useQuery(
    alertGroupsByQueryOptions({ ...filters, signature: String(sid) }, 'source'),
  );
  if (sources.isError || sources.isPending)
    return (
      <TableRow>
        <TableCell />
        <TableCell colSpan={5}>
          {sources.isError ? (
            <Alert severity="error">{errorText(apiErrorMessage(sources.error), t)}</Alert>
          ) : (
            t('common.loading')
          )}
        </TableCell>
      </TableRow>
    );
  return sources.data.data.map((group) => (
    <GroupRow
      key={String(group.src_ip)}
      group={group}
      by="source"
      nested
      pivots={
        group.src_ip === null
          ? []
          : [
              ['sid', String(sid)],
              ['src_ip', group.src_ip],
            ]
      }
      onOpenGroup={onOpenGroup}
    />
  ));
}

function GroupRow({
  group,
  by,
  nested = false,
  pivots: given,
  expander,
  onOpenGroup,
}: {
  group: AlertGroupByRow;
  by: Grouping;
  /** A second-level row, under its signature. */
  nested?: boolean;
  pivots?: GroupPivots;
  expander?: { open: boolean; disabled: boolean; onToggle: () => void };
  onOpenGroup: (pivots: GroupPivots) => void;
}) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  const described = describe(group, by);
  const { key } = described;
  const pivots = given ?? described.pivots;
  const openable = pivots.length > 0;
  return (
    <TableRow
      hover={openable}
      data-testid={nested ? 'alert-subgroup' : 'alert-group'}
      onClick={openable ? () => onOpenGroup(pivots) : undefined}
      sx={openable ? { cursor: 'pointer' } : undefined}
    >
      {(expander !== undefined || nested) && (
        <TableCell padding="checkbox">
          {expander && (
            <IconButton
              size="small"
              disabled={expander.disabled}
              aria-expanded={expander.open}
              aria-label={t('alerts.grouping.expand', { key })}
              onClick={(event) => {
                event.stopPropagation();
                expander.onToggle();
              }}
            >
              {expander.open ? (
                <KeyboardArrowUpIcon fontSize="small" />
              ) : (
                <KeyboardArrowDownIcon fontSize="small" />
              )}
            </IconButton>
          )}
        </TableCell>
      )}
      <TableCell dir="auto" sx={nested ? { paddingInlineStart: 4 } : undefined}>
        {openable ? (
          // The row opens on a click anywhere; the link makes that reachable by keyboard.
          <Link
            component="button"
            type="button"
            underline="hover"
            sx={{ textAlign: 'start' }}
            aria-label={t('alerts.grouping.open', { key })}
          >
            {key}
          </Link>
        ) : (
          key
        )}
      </TableCell>
      <TableCell align="right">{number.format(group.count)}</TableCell>
      <TableCell>{formatDateTime(group.first_seen, i18n.language)}</TableCell>
      <TableCell>{formatDateTime(group.last_seen, i18n.language)}</TableCell>
      <TableCell>
        <Sparkline series={group.series} label={t('alerts.grouping.trendOf', { key })} />
      </TableCell>
    </TableRow>
  );
}

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTheme } from '@mui/material/styles';
import type { Alert } from '@palisade/contract';
import { giveWay, textColumnWidth } from '../../../components/data-table/column-widths';
import type { DataColumn } from '../../../components/data-table/types';
import { dateTimeSamples, formatDateTime } from '../../../lib/format-date';
import { EndpointPivots, PivotValue, type OnPivot } from './PivotValue';
import { SeverityChip } from './SeverityChip';
import { StarToggle } from './StarToggle';

/** The columns that leave a narrow list first, so that it never scrolls sideways. */
const GIVE_WAY = ['proto', 'device'];

interface AlertColumnsOptions {
  canWrite: boolean;
  selected: ReadonlySet<number>;
  onToggle: (id: number) => void;
  onOpen: (alert: Alert) => void;
  onPivot: OnPivot;
}

/** The alerts list's columns; a writer gets a checkbox column first. */
export function useAlertColumns(options: AlertColumnsOptions): DataColumn<Alert>[] {
  const { canWrite, selected, onToggle, onOpen, onPivot } = options;
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  // The time is never cut: as wide as the language's widest moment ("12/28/2026, 10:58:58 PM").
  const timeWidth = useMemo(() => {
    const { fontWeight, fontSize, fontFamily } = theme.typography.body2;
    const font = `${String(fontWeight)} ${String(fontSize)} ${String(fontFamily)}`;
    return textColumnWidth(dateTimeSamples(i18n.language), font, 175);
  }, [theme, i18n.language]);
  return useMemo<DataColumn<Alert>[]>(() => {
    const list: DataColumn<Alert>[] = [
      {
        id: 'starred',
        // Read by screen readers; the column is an icon wide.
        header: t('alerts.columns.star'),
        width: 36,
        cell: (a) => <StarToggle alertId={a.id} starred={a.starred} canWrite={canWrite} />,
      },
      {
        id: 'time',
        header: t('alerts.columns.time'),
        width: timeWidth,
        cell: (a) => {
          const time = formatDateTime(a.time, i18n.language);
          return <span title={time}>{time}</span>;
        },
      },
      {
        id: 'device',
        header: t('alerts.columns.device'),
        width: 110,
        cell: (a) => (
          <PivotValue
            field="device"
            value={String(a.device_id)}
            label={a.device}
            onPivot={onPivot}
          />
        ),
      },
      {
        id: 'severity',
        header: t('alerts.columns.severity'),
        width: 64,
        cell: (a) => <SeverityChip severity={a.severity} />,
      },
      {
        id: 'msg',
        header: t('alerts.columns.message'),
        // No width: it takes what the fixed columns leave, never less than the table's floor
        // for its flexible column (the table scrolls sideways in a narrower window).
        // Plain elements styled once by the theme (`.alert-msg`, mui-theme.ts): one a row.
        cell: (a) => (
          <span className="alert-msg">
            <button
              type="button"
              className="alert-open"
              onClick={(event) => {
                event.stopPropagation();
                onOpen(a);
              }}
              data-testid="alert-open"
              title={a.msg ?? undefined}
            >
              {a.msg ?? t('alerts.noMessage')}
            </button>
            {a.sid !== null && (
              <span className="alert-sid">
                <PivotValue field="sid" value={String(a.sid)} onPivot={onPivot} />
              </span>
            )}
          </span>
        ),
      },
      {
        id: 'src',
        header: t('alerts.columns.source'),
        width: 150,
        cell: (a) => (
          <EndpointPivots side="src" ip={a.src_ip} port={a.src_port} onPivot={onPivot} />
        ),
      },
      {
        id: 'dest',
        header: t('alerts.columns.destination'),
        width: 150,
        cell: (a) => (
          <EndpointPivots side="dest" ip={a.dest_ip} port={a.dest_port} onPivot={onPivot} />
        ),
      },
      {
        id: 'proto',
        header: t('alerts.columns.proto'),
        width: 72,
        cell: (a) =>
          a.proto === null ? '–' : <PivotValue field="proto" value={a.proto} onPivot={onPivot} />,
      },
      {
        id: 'acknowledged',
        header: t('alerts.columns.state'),
        width: 110,
        cell: (a) =>
          a.acknowledged ? (
            <span className="cell-mark outlined">{t('alerts.state.acknowledged')}</span>
          ) : (
            <span className="cell-mark info">{t('alerts.state.new')}</span>
          ),
      },
    ];
    // In a narrow window (1280 px beside the open navigation) the protocol, then the device,
    // give way rather than the list scrolling sideways; the drawer shows both.
    if (!canWrite) return giveWay(list, GIVE_WAY);
    return giveWay(
      [
        {
          id: 'select',
          header: '',
          width: 36,
          cell: (a) => (
            <input
              type="checkbox"
              className="row-check"
              checked={selected.has(a.id)}
              onClick={(event) => event.stopPropagation()}
              onChange={() => onToggle(a.id)}
              aria-label={t('alerts.select', { id: a.id })}
            />
          ),
        },
        ...list,
      ],
      GIVE_WAY,
    );
  }, [t, i18n.language, timeWidth, canWrite, selected, onToggle, onOpen, onPivot]);
}

import {
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import ToggleButton from '@mui/material/ToggleButton';
import Typography from '@mui/material/Typography';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import type { Alert, AlertFilters } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { giveWay, textColumnWidth } from '../../../components/data-table/column-widths';
import { ALL_ROWS, type TableState } from '../../../components/data-table/list-params';
import type { DataColumn } from '../../../components/data-table/types';
import { notifyApiError, notifySuccess } from '../../../components/notifications/notify';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { useAcknowledgeAlerts } from '../api/ack-alerts';
import { alertsKey } from '../api/keys';
import { alertPageQueryOptions } from '../api/list-alerts';
import { newerAlertsQueryOptions } from '../api/newer-alerts';
import { dateTimeSamples, formatDateTime } from '../../../lib/format-date';
import { beforeOf, firstPage, footerTotal, movePage } from '../keyset';
import { isTyping, listKeyAction } from '../list-keys';
import { EndpointPivots, PivotValue, type OnPivot } from './PivotValue';
import { SeverityChip } from './SeverityChip';
import { StarToggle } from './StarToggle';

/** The columns that leave a narrow list first, so that it never scrolls sideways. */
const GIVE_WAY = ['proto', 'device'];

/** The most the API returns per page; the footer's 'All' asks for this many. */
const MAX_PAGE = 5000;
const DEFAULT_PAGE = 100;
/** Auto-insert redraws the list at most this often, as the live refresh of the rest (2 s). */
const AUTO_INSERT_INTERVAL_MS = 2000;
/** One line per alert: 25 and more fit the list's height on a 900 px screen. */
const ROW_HEIGHT = 28;

/** How new alerts reach the list: held behind the banner, inserted at the top, or not fetched. */
export interface LiveMode {
  paused: boolean;
  /** Insert new alerts by themselves while the list is at its top. */
  auto: boolean;
}

interface AlertsTableProps {
  filters: AlertFilters;
  canWrite: boolean;
  onOpen: (alert: Alert) => void;
  onPivot: OnPivot;
  live: LiveMode;
  onLiveChange: (live: LiveMode) => void;
  /** The list's keys (j, k, Enter, e, /) are on: no drawer or dialog is over it. */
  keyboard: boolean;
}

/**
 * The alerts list, newest first, one line per alert, paged by keyset (see keyset.ts). The rows
 * shown stay put while alerts arrive: a banner counts the new ones and inserts them when asked
 * (or by itself at the top of the list in auto mode). j/k move, Enter opens, e acknowledges.
 */
export function AlertsTable(props: AlertsTableProps) {
  const { filters, canWrite, onOpen, onPivot, live, onLiveChange, keyboard } = props;
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [keyset, setKeyset] = useState(() => firstPage(DEFAULT_PAGE));
  const { pageIndex, pageSize } = keyset;
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [activeId, setActiveId] = useState<number | null>(null);
  const [atTop, setAtTop] = useState(true);
  const limit = pageSize === ALL_ROWS ? MAX_PAGE : pageSize;
  const before = beforeOf(keyset);
  const page = useQuery(alertPageQueryOptions({ filters, before, limit }));
  const ack = useAcknowledgeAlerts();

  // A new filter starts from the newest page again.
  const [seenFilters, setSeenFilters] = useState(filters);
  if (seenFilters !== filters) {
    setSeenFilters(filters);
    setKeyset(firstPage(pageSize));
    setSelected(new Set());
    setActiveId(null);
  }

  // What the list shows is drawn in an interruptible render: at 200 alerts/s an insert replaces
  // every visible row, and drawing them all at once held frames for 400 ms (bench/web.bench.ts).
  // Rows, total and footer come from the same answer, so they never disagree.
  const shown = useDeferredValue(page.data);
  const rows = useMemo(() => shown?.data ?? [], [shown]);
  const visibleIds = rows.map((a) => a.id);
  const chosen = visibleIds.filter((id) => selected.has(id));
  const activeIndex = activeId === null ? -1 : rows.findIndex((a) => a.id === activeId);

  // The newest alert on the list (from its first page): the banner counts what came after it.
  const [newest, setNewest] = useState<string | null>(null);
  const shownNewest =
    pageIndex === 0 && page.data !== undefined ? (page.data.data[0]?.time ?? null) : newest;
  if (shownNewest !== newest && !page.isPlaceholderData) setNewest(shownNewest);
  const newer = useQuery({
    ...newerAlertsQueryOptions(filters, newest),
    enabled: !live.paused && page.data !== undefined && !page.isPlaceholderData,
  });
  const waiting = newer.data?.count ?? 0;

  const refreshList = useCallback(
    () => void client.invalidateQueries({ queryKey: [...alertsKey, 'list'] }),
    [client],
  );
  const showNew = () => {
    setKeyset(firstPage(pageSize));
    refreshList();
  };

  // Nothing shown yet, or auto at the top: the new alerts go in at once, but at most every
  // AUTO_INSERT_INTERVAL_MS: at 200 alerts/s there is always a newer one, and inserting each
  // time the count came back redrew the list back to back (bench/web.bench.ts, live-alerts).
  const insertNow = pageIndex === 0 && (rows.length === 0 || (live.auto && atTop));
  const lastAutoInsert = useRef(0);
  useEffect(() => {
    if (waiting === 0 || live.paused || !insertNow || page.isFetching || page.isError)
      return undefined;
    const insert = () => {
      lastAutoInsert.current = Date.now();
      refreshList();
    };
    const wait = lastAutoInsert.current + AUTO_INSERT_INTERVAL_MS - Date.now();
    if (wait <= 0) {
      insert();
      return undefined;
    }
    const timer = setTimeout(insert, wait);
    return () => clearTimeout(timer);
  }, [waiting, live.paused, insertNow, page.isFetching, page.isError, refreshList]);

  const toggle = (id: number) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const acknowledgeOne = useCallback(
    async (alert: Alert) => {
      try {
        await ack.mutateAsync({ ids: [alert.id], acknowledged: true });
        notifySuccess('alerts.ack.done');
      } catch (failure) {
        notifyApiError(failure);
      }
    },
    [ack],
  );

  // A layout effect: the keys act on the rows on screen as soon as they are painted, not after
  // a passive effect catches up (a j pressed then moved nothing).
  useLayoutEffect(() => {
    if (!keyboard) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event)) return;
      const action = listKeyAction(event.key);
      if (action === null) return;
      event.preventDefault();
      const current = rows[activeIndex];
      switch (action) {
        case 'next':
        case 'previous': {
          const step = action === 'next' ? 1 : -1;
          const index = Math.min(rows.length - 1, Math.max(0, activeIndex + step));
          const next = rows[activeIndex === -1 ? 0 : index];
          if (next) setActiveId(next.id);
          break;
        }
        case 'open':
          if (current) onOpen(current);
          break;
        case 'acknowledge':
          if (current && canWrite && !current.acknowledged) void acknowledgeOne(current);
          break;
        case 'search':
          document.querySelector<HTMLInputElement>('input[name="signature"]')?.focus();
          break;
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [keyboard, rows, activeIndex, onOpen, canWrite, acknowledgeOne]);

  const onRowClick = useCallback((alert: Alert) => setActiveId(alert.id), []);
  const theme = useTheme();
  // The time is never cut: as wide as the language's widest moment ("12/28/2026, 10:58:58 PM").
  const timeWidth = useMemo(() => {
    const { fontWeight, fontSize, fontFamily } = theme.typography.body2;
    const font = `${String(fontWeight)} ${String(fontSize)} ${String(fontFamily)}`;
    return textColumnWidth(dateTimeSamples(i18n.language), font, 175);
  }, [theme, i18n.language]);
  const columns = useMemo<DataColumn<Alert>[]>(() => {
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
              onChange={() => toggle(a.id)}
              aria-label={t('alerts.select', { id: a.id })}
            />
          ),
        },
        ...list,
      ],
      GIVE_WAY,
    );
  }, [t, i18n.language, timeWidth, canWrite, selected, onOpen, onPivot]);

  const total = shown?.recordsTotal ?? 0;
  const state: TableState = { pageIndex, pageSize, sorting: [], search: '' };
  // The keyset moves on from the page last answered, which the list may still be drawing.
  const onStateChange = (next: TableState) =>
    setKeyset(movePage(keyset, next, page.data?.next_cursor));

  const acknowledge = async (acknowledged: boolean) => {
    try {
      await ack.mutateAsync({ ids: chosen, acknowledged });
      notifySuccess(acknowledged ? 'alerts.ack.done' : 'alerts.ack.reopened');
      setSelected(new Set());
    } catch (failure) {
      notifyApiError(failure);
    }
  };

  const error = page.isError ? apiErrorMessage(page.error) : null;
  const shownTotal = footerTotal({
    pageIndex,
    limit,
    rows: rows.length,
    recordsTotal: total,
    nextCursor: shown?.next_cursor,
  });
  return (
    <Box>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          flexWrap: 'wrap',
          mb: 1,
          minHeight: 40,
        }}
      >
        <LiveControls live={live} onLiveChange={onLiveChange} waiting={waiting} onShow={showNew} />
        {canWrite && (
          <>
            <FormControlLabel
              control={
                <Checkbox
                  size="small"
                  checked={chosen.length > 0 && chosen.length === visibleIds.length}
                  indeterminate={chosen.length > 0 && chosen.length < visibleIds.length}
                  onChange={(event) =>
                    setSelected(event.target.checked ? new Set(visibleIds) : new Set())
                  }
                />
              }
              label={t('alerts.selectPage')}
            />
            <Button
              size="small"
              variant="outlined"
              startIcon={<DoneAllIcon />}
              disabled={chosen.length === 0 || ack.isPending}
              onClick={() => void acknowledge(true)}
            >
              {t('alerts.ack.selected', { count: chosen.length })}
            </Button>
            <Button
              size="small"
              startIcon={<RestartAltIcon />}
              disabled={chosen.length === 0 || ack.isPending}
              onClick={() => void acknowledge(false)}
            >
              {t('alerts.ack.reopenSelected', { count: chosen.length })}
            </Button>
          </>
        )}
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ marginInlineStart: 'auto' }}
          data-testid="alerts-total"
        >
          {shown === undefined
            ? ''
            : shown.recordsTotalIsExact
              ? t('alerts.total', { count: total })
              : t('alerts.totalAtLeast', { count: total })}
        </Typography>
      </Box>
      <DataTable
        label={t('alerts.listLabel')}
        columns={columns}
        rows={rows}
        total={shownTotal}
        getRowId={(a) => String(a.id)}
        state={state}
        onStateChange={onStateChange}
        loading={page.isFetching}
        error={errorText(error, t)}
        onRetry={() => void page.refetch()}
        emptyText={t('alerts.empty')}
        searchable={false}
        height="calc(100vh - 180px)"
        rowHeight={ROW_HEIGHT}
        // A live insert redraws every row in the DOM: keep few beyond the window.
        overscan={3}
        dense
        activeIndex={activeIndex === -1 ? null : activeIndex}
        onRowClick={onRowClick}
        onAtTopChange={setAtTop}
      />
    </Box>
  );
}

/** Pause, auto-insert, and the "N new alerts" button; always the same width, so nothing moves. */
function LiveControls(props: {
  live: LiveMode;
  onLiveChange: (live: LiveMode) => void;
  waiting: number;
  onShow: () => void;
}) {
  const { live, onLiveChange, waiting, onShow } = props;
  const { t } = useTranslation();
  return (
    <>
      <ToggleButton
        value="paused"
        size="small"
        selected={live.paused}
        onChange={() => onLiveChange({ ...live, paused: !live.paused })}
        aria-label={live.paused ? t('alerts.live.resume') : t('alerts.live.pause')}
        title={live.paused ? t('alerts.live.resume') : t('alerts.live.pause')}
        sx={{ py: 0.25 }}
      >
        {live.paused ? <PlayArrowIcon fontSize="small" /> : <PauseIcon fontSize="small" />}
      </ToggleButton>
      <FormControlLabel
        control={
          <Checkbox
            size="small"
            checked={live.auto}
            disabled={live.paused}
            onChange={(event) => onLiveChange({ ...live, auto: event.target.checked })}
          />
        }
        label={t('alerts.live.auto')}
      />
      <Box sx={{ minWidth: 150 }} aria-live="polite">
        {live.paused ? (
          <Typography variant="body2" color="text.secondary">
            {t('alerts.live.paused')}
          </Typography>
        ) : (
          waiting > 0 && (
            <Button size="small" variant="contained" onClick={onShow} data-testid="alerts-new">
              {t('alerts.live.newAlerts', { count: waiting })}
            </Button>
          )
        )}
      </Box>
    </>
  );
}

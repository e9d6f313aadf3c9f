import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import type { Alert, AlertFilters } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { ALL_ROWS, type TableState } from '../../../components/data-table/list-params';
import { notifyApiError, notifySuccess } from '../../../components/notifications/notify';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { useAcknowledgeAlerts } from '../api/ack-alerts';
import { alertsKey } from '../api/keys';
import { alertPageQueryOptions } from '../api/list-alerts';
import { newerAlertsQueryOptions } from '../api/newer-alerts';
import { beforeOf, firstPage, footerTotal, movePage } from '../keyset';
import { AlertsToolbar } from './AlertsToolbar';
import { type OnPivot } from './PivotValue';
import { useAlertColumns } from './useAlertColumns';
import { useAlertListKeys } from './useAlertListKeys';
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
  const { t } = useTranslation();
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
  useAutoInsert({
    ready: waiting > 0 && !live.paused && insertNow && !page.isFetching && !page.isError,
    refreshList,
  });

  const toggle = useCallback(
    (id: number) =>
      setSelected((previous) => {
        const next = new Set(previous);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );

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

  useAlertListKeys({
    keyboard,
    rows,
    activeIndex,
    setActiveId,
    onOpen,
    canWrite,
    acknowledgeOne,
  });

  const onRowClick = useCallback((alert: Alert) => setActiveId(alert.id), []);
  const columns = useAlertColumns({ canWrite, selected, onToggle: toggle, onOpen, onPivot });

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
      <AlertsToolbar
        live={live}
        onLiveChange={onLiveChange}
        waiting={waiting}
        onShowNew={showNew}
        canWrite={canWrite}
        chosen={chosen}
        visibleIds={visibleIds}
        onSelectPage={(all) => setSelected(all ? new Set(visibleIds) : new Set())}
        ackPending={ack.isPending}
        onAcknowledge={(acknowledged) => void acknowledge(acknowledged)}
        total={shown === undefined ? undefined : { count: total, exact: shown.recordsTotalIsExact }}
      />
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

/** Refreshes the list once `ready`, but not sooner than AUTO_INSERT_INTERVAL_MS after the last. */
function useAutoInsert({ ready, refreshList }: { ready: boolean; refreshList: () => void }) {
  const lastAutoInsert = useRef(0);
  useEffect(() => {
    if (!ready) return undefined;
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
  }, [ready, refreshList]);
}

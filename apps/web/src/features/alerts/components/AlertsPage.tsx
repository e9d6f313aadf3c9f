import { useCallback, useState, type ComponentType } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { Alert, AlertFilters } from '@palisade/contract';
import { PageShell } from '../../../components/page/PageShell';
import { useOpenFromAddress } from '../../../components/page/useOpenFromAddress';
import { useLiveEvent } from '../../../lib/live-events';
import { session } from '../../../lib/session';
import { useStore } from '../../../lib/store';
import { alertsKey } from '../api/keys';
import {
  EXCLUSIONS,
  formFromParams,
  formKey,
  formToParams,
  pivot,
  toFilters,
  type Exclusion,
  type FilterForm,
  type PivotField,
} from '../filters';
import { AlertDrawer } from './AlertDrawer';
import { AlertFiltersForm } from './AlertFiltersForm';
import { AlertGroupsView, isGroupView, type GroupPivots, type GroupView } from './AlertGroupsView';
import { AlertsHistogram } from './AlertsHistogram';
import { AlertsTable, type LiveMode } from './AlertsTable';
import { BulkActionBar } from './BulkActionBar';
import { SavedViewsMenu } from './SavedViewsMenu';

const LIVE_INTERVAL_MS = 2000;
/** The form's filters, a relative range fixed to now. */
const filtersNow = (form: FilterForm) => toFilters(form, Date.now()).filters;
const EXCLUSION_LABELS = {
  not_device: 'alerts.columns.device',
  not_sid: 'alerts.columns.sid',
  not_src_ip: 'alerts.filters.srcIp',
  not_src_port: 'alerts.filters.srcPort',
  not_dest_ip: 'alerts.filters.destIp',
  not_dest_port: 'alerts.filters.destPort',
  not_proto: 'alerts.filters.proto',
} as const satisfies Record<Exclusion, string>;
const VIEWS = ['list', 'groups'] as const;
type View = (typeof VIEWS)[number];
const isView = (value: string | null): value is View =>
  value !== null && (VIEWS as readonly string[]).includes(value);

/**
 * /alerts: filters, a histogram over time, the keyset-paged list or the signature groups,
 * and an alert's detail with acknowledge and tuning. New alerts arrive over the live channel.
 */
export function AlertsPage({
  RuleNote,
}: {
  RuleNote?: ComponentType<{ gid: number; sid: number }>;
}) {
  const { t } = useTranslation();
  const { user, authDisabled } = useStore(session);
  // Viewers only read: the server refuses them acknowledge and tuning (a 403 would log them out).
  const canWrite = authDisabled || (user !== null && user.role !== 'Viewer');
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const view: View = isView(params.get('view')) ? (params.get('view') as View) : 'list';
  // The grouping lives in the URL too (?group=source), so a reload or Back keeps it.
  const groupParam = params.get('group');
  const grouping: GroupView = isGroupView(groupParam) ? groupParam : 'signature';
  const { form, setForm, filters, setFilters, formVersion, remountForm } = useFormInUrl(params);
  const [openId, setOpenId] = useState<number | null>(null);
  // A link may name an alert to open (?alert=41): rule analytics' "Tune" does.
  const openFromAddress = useCallback(
    (id: number) => {
      setOpenId(id);
      return true;
    },
    [setOpenId],
  );
  useOpenFromAddress('alert', openFromAddress);
  const [live, setLive] = useState<LiveMode>({ paused: false, auto: false });

  // Agents send alerts in bursts: refetch at most every LIVE_INTERVAL_MS, and never the list's
  // rows themselves: the list counts what is new and inserts it when asked (AlertsTable).
  useLiveEvent(
    'alerts',
    () => {
      if (live.paused) return;
      void client.invalidateQueries({
        queryKey: alertsKey,
        predicate: (query) => query.queryKey[1] !== 'list',
      });
    },
    { minIntervalMs: LIVE_INTERVAL_MS },
  );

  const switchView = (next: View) =>
    setParams((previous) => {
      const updated = new URLSearchParams(previous);
      updated.set('view', next);
      return updated;
    });
  const switchGrouping = (next: GroupView) =>
    setParams((previous) => {
      const updated = new URLSearchParams(previous);
      if (next === 'signature') updated.delete('group');
      else updated.set('group', next);
      return updated;
    });
  const apply = (nextForm: FilterForm, nextFilters: AlertFilters, nextView: View = view) => {
    setForm(nextForm);
    setFilters(nextFilters);
    setParams((previous) => {
      const updated = formToParams(nextForm, previous);
      updated.set('view', nextView);
      return updated;
    });
  };
  const showSignature = (sid: number) => {
    const nextForm = { ...form, signature: String(sid) };
    apply(nextForm, filtersNow(nextForm), 'list');
    remountForm();
  };
  const open = useCallback((alert: Alert) => setOpenId(alert.id), [setOpenId]);
  // A value in the list or the drawer: only alerts with it, or (exclude) without it.
  const onPivot = (field: PivotField, value: string, exclude: boolean) => {
    const nextForm = pivot(form, field, value, exclude);
    setOpenId(null);
    apply(nextForm, filtersNow(nextForm), 'list');
    remountForm();
  };
  // A group's row: the list of its alerts (as its pivots, one after the other, would filter).
  const openGroup = (pivots: GroupPivots) => {
    const nextForm = pivots.reduce(
      (current, [field, value]) => pivot(current, field, value, false),
      form,
    );
    apply(nextForm, filtersNow(nextForm), 'list');
    remountForm();
  };
  const dropExclusion = (field: Exclusion) => {
    const nextForm = { ...form, [field]: '' };
    apply(nextForm, filtersNow(nextForm));
  };
  const applyView = (nextForm: FilterForm) => {
    apply(nextForm, filtersNow(nextForm), 'list');
    remountForm();
  };

  return (
    <PageShell
      title={t('nav.alerts')}
      actions={<SavedViewsMenu form={form} canShare={canWrite} onApply={applyView} />}
    >
      <AlertFiltersForm
        key={formVersion}
        form={form}
        onApply={(nextForm, nextFilters) => apply(nextForm, nextFilters)}
      />
      <ExclusionChips form={form} onDrop={dropExclusion} />
      <AlertsHistogram filters={filters} />
      <BulkActionBar filters={filters} canWrite={canWrite} />
      <AlertViewTabs view={view} onChange={switchView} />
      <div role="tabpanel" aria-labelledby={`alerts-tab-${view}`}>
        {view === 'list' ? (
          <>
            <AlertsTable
              filters={filters}
              canWrite={canWrite}
              onOpen={open}
              onPivot={onPivot}
              live={live}
              onLiveChange={setLive}
              keyboard={openId === null}
            />
            <Typography variant="caption" color="text.secondary">
              {t('alerts.keys')}
            </Typography>
          </>
        ) : (
          <AlertGroupsView
            filters={filters}
            by={grouping}
            onByChange={switchGrouping}
            onShowSignature={showSignature}
            onOpenGroup={openGroup}
          />
        )}
      </div>
      <AlertDrawer
        alertId={openId}
        canWrite={canWrite}
        RuleNote={RuleNote}
        onPivot={onPivot}
        onOpen={setOpenId}
        onClose={() => setOpenId(null)}
      />
    </PageShell>
  );
}

/**
 * The filters the form shows and the list applies, following the URL (?device=&signature=…),
 * so that links and Back keep them. `formVersion` changes when the form must show new values.
 */
function useFormInUrl(params: URLSearchParams) {
  const [form, setForm] = useState<FilterForm>(() => formFromParams(params));
  const [filters, setFilters] = useState<AlertFilters>(
    () => toFilters(formFromParams(params), Date.now()).filters,
  );
  const [formVersion, setFormVersion] = useState(0);
  const remountForm = () => setFormVersion((v) => v + 1);
  // Back, Forward or a link changed the filters in the URL: show and apply them. The router
  // writes the URL in a transition, after Apply has already set the form, so only a URL that
  // moved to filters other than the applied ones is news; the form is not remounted for the
  // page's own writes (that lost what was typed, and a menu being opened, after an Apply).
  const urlForm = formFromParams(params);
  const urlKey = formKey(urlForm);
  const [seenUrl, setSeenUrl] = useState(urlKey);
  if (urlKey !== seenUrl) {
    setSeenUrl(urlKey);
    if (urlKey !== formKey(form)) {
      setForm(urlForm);
      setFilters(() => filtersNow(urlForm));
      remountForm();
    }
  }
  return { form, setForm, filters, setFilters, formVersion, remountForm };
}

/** The values the list leaves out, each a chip that takes its exclusion back. */
function ExclusionChips({
  form,
  onDrop,
}: {
  form: FilterForm;
  onDrop: (field: Exclusion) => void;
}) {
  const { t } = useTranslation();
  const exclusions = EXCLUSIONS.filter((field) => form[field] !== '');
  if (exclusions.length === 0) return null;
  return (
    <Box
      sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}
      data-testid="alerts-exclusions"
    >
      <Typography variant="body2" color="text.secondary">
        {t('alerts.exclusions.label')}
      </Typography>
      {exclusions.map((field) => (
        <Chip
          key={field}
          size="small"
          label={t('alerts.exclusions.chip', {
            field: t(EXCLUSION_LABELS[field]),
            value: form[field],
          })}
          onDelete={() => onDrop(field)}
          slotProps={{
            root: { 'aria-label': t('alerts.exclusions.remove', { value: form[field] }) },
          }}
        />
      ))}
    </Box>
  );
}

function AlertViewTabs({ view, onChange }: { view: View; onChange: (next: View) => void }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
      <Tabs
        value={view}
        onChange={(_event, next: View) => onChange(next)}
        aria-label={t('alerts.views.label')}
      >
        <Tab value="list" label={t('alerts.views.list')} id="alerts-tab-list" />
        <Tab value="groups" label={t('alerts.views.groups')} id="alerts-tab-groups" />
      </Tabs>
    </Box>
  );
}

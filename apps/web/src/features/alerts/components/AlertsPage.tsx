import { useCallback, useState, type ComponentType } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { Alert, AlertFilters } from '@palisade/contract';
import { PageShell } from '../../../components/page/PageShell';
import { useLiveEvent } from '../../../lib/live-events';
import { session } from '../../../lib/session';
import { useStore } from '../../../lib/store';
import { alertsKey } from '../api/keys';
import { formFromParams, formToParams, toFilters, type FilterForm } from '../filters';
import { AlertDrawer } from './AlertDrawer';
import { AlertFiltersForm } from './AlertFiltersForm';
import { AlertsHistogram } from './AlertsHistogram';
import { AlertsTable } from './AlertsTable';
import { SignatureGroupsTable } from './SignatureGroupsTable';

const LIVE_INTERVAL_MS = 2000;
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
  // The filters live in the URL too (?device=&signature=…), so links and Back keep them.
  const [form, setForm] = useState<FilterForm>(() => formFromParams(params));
  const [filters, setFilters] = useState<AlertFilters>(
    () => toFilters(formFromParams(params), Date.now()).filters,
  );
  const [formVersion, setFormVersion] = useState(0);
  // Back, Forward or a link changed the filters in the URL: show and apply them.
  const urlForm = formFromParams(params);
  const urlKey = JSON.stringify(urlForm);
  const [seenUrl, setSeenUrl] = useState(urlKey);
  if (urlKey !== seenUrl) {
    setSeenUrl(urlKey);
    setForm(urlForm);
    setFilters(() => toFilters(urlForm, Date.now()).filters);
    setFormVersion((v) => v + 1);
  }
  const [openId, setOpenId] = useState<number | null>(null);

  // Agents send alerts in bursts: refetch what is shown at most every LIVE_INTERVAL_MS.
  useLiveEvent('alerts', () => void client.invalidateQueries({ queryKey: alertsKey }), {
    minIntervalMs: LIVE_INTERVAL_MS,
  });

  const switchView = (next: View) =>
    setParams((previous) => {
      const updated = new URLSearchParams(previous);
      updated.set('view', next);
      return updated;
    });
  const apply = (nextForm: FilterForm, nextFilters: AlertFilters, nextView: View = view) => {
    setForm(nextForm);
    setFilters(nextFilters);
    setSeenUrl(JSON.stringify(nextForm));
    setParams((previous) => {
      const updated = formToParams(nextForm, previous);
      updated.set('view', nextView);
      return updated;
    });
  };
  const showSignature = (sid: number) => {
    const nextForm = { ...form, signature: String(sid) };
    apply(nextForm, toFilters(nextForm, Date.now()).filters, 'list');
    setFormVersion((v) => v + 1);
  };
  const open = useCallback((alert: Alert) => setOpenId(alert.id), []);

  return (
    <PageShell title={t('nav.alerts')}>
      <AlertFiltersForm
        key={formVersion}
        form={form}
        onApply={(nextForm, nextFilters) => apply(nextForm, nextFilters)}
      />
      <AlertsHistogram filters={filters} />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs
          value={view}
          onChange={(_event, next: View) => switchView(next)}
          aria-label={t('alerts.views.label')}
        >
          <Tab value="list" label={t('alerts.views.list')} id="alerts-tab-list" />
          <Tab value="groups" label={t('alerts.views.groups')} id="alerts-tab-groups" />
        </Tabs>
      </Box>
      <div role="tabpanel" aria-labelledby={`alerts-tab-${view}`}>
        {view === 'list' ? (
          <AlertsTable filters={filters} canWrite={canWrite} onOpen={open} />
        ) : (
          <SignatureGroupsTable filters={filters} onShowSignature={showSignature} />
        )}
      </div>
      <AlertDrawer
        alertId={openId}
        canWrite={canWrite}
        RuleNote={RuleNote}
        onClose={() => setOpenId(null)}
      />
    </PageShell>
  );
}

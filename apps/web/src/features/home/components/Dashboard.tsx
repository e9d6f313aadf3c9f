import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { DEVICE_PROBLEMS, type DeviceProblem, type DeviceSummary } from '@palisade/contract';
import { TimeChart } from '../../../components/charts/TimeChart';
import { useLiveEvent } from '../../../lib/live-events';
import {
  alertSummaryQueryOptions,
  dashboardKey,
  fleetQueryOptions,
  ruleSourcesQueryOptions,
} from '../api/dashboard';
import { historyPath, sourcesPath } from '../../rule-sources/components/paths';

const LIVE_INTERVAL_MS = 2000;
const FLEET_LIVE_MS = 250;
/** The alert links open the same window the dashboard counts. */
const ALERTS = '/alerts?range=24h';
const SEVERITY_KEYS = [
  'home.dashboard.severity1',
  'home.dashboard.severity2',
  'home.dashboard.severity3',
  'home.dashboard.severity4',
] as const;

function Card({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }} data-testid={testId}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Rows of "label … count", each a link into the filtered view. */
function CountList({
  rows,
  empty,
}: {
  rows: { key: string; label: string; to: string; count: number }[];
  empty: string;
}) {
  const { i18n } = useTranslation();
  if (rows.length === 0) return <Typography color="text.secondary">{empty}</Typography>;
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 0.5 }}>
      {rows.map((row) => (
        <Box component="li" key={row.key} sx={{ display: 'flex', gap: 1, minWidth: 0 }}>
          <Link component={RouterLink} to={row.to} noWrap dir="auto" sx={{ flex: 1, minWidth: 0 }}>
            {row.label}
          </Link>
          <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            {number.format(row.count)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** Each figure's Devices list filter (the server counts with the same filters). */
const PROBLEM_FILTERS: Record<DeviceProblem, string> = {
  offline: 'online:false',
  pending: 'update_pending:true',
  errors: 'error:true',
  unhealthy: 'health:degraded',
  firewall_drift: 'firewall_drift:true',
};

/**
 * Devices with a problem: the count links to the filtered list, each name named by the
 * server (at most DEVICES_NAMED: offline ones last seen most recently first, others newest
 * first) to its page.
 */
function FleetProblems({ summary }: { summary: DeviceSummary }) {
  const { t } = useTranslation();
  const labels: Record<DeviceProblem, string> = {
    offline: t('home.dashboard.offline'),
    pending: t('home.dashboard.outOfSync'),
    errors: t('home.dashboard.applyErrors'),
    unhealthy: t('home.dashboard.unhealthy'),
    firewall_drift: t('home.dashboard.firewallDrift'),
  };
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      {DEVICE_PROBLEMS.map((id) => {
        const { count, devices } = summary.problems[id];
        return (
          <Box key={id} data-testid={`fleet-${id}`}>
            <Link
              component={RouterLink}
              to={`/devices?q=${PROBLEM_FILTERS[id]}`}
              sx={{ fontWeight: 600 }}
            >
              {labels[id]}: {count}
            </Link>
            {count > 0 && (
              <Typography
                variant="body2"
                component="div"
                sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}
              >
                {devices.map((d) => (
                  <Link key={d.id} component={RouterLink} to={`/devices/${d.id}`} dir="auto">
                    {d.name}
                  </Link>
                ))}
                {count > devices.length && <span>+{count - devices.length}</span>}
              </Typography>
            )}
          </Box>
        );
      })}
    </Box>
  );
}

/** Home's dashboard: alerts of the last 24 hours, fleet problems, failed rule sources; live. */
export function Dashboard() {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const client = useQueryClient();
  const summary = useQuery(alertSummaryQueryOptions);
  const fleet = useQuery(fleetQueryOptions);
  const sources = useQuery(ruleSourcesQueryOptions);
  const refresh = () => void client.invalidateQueries({ queryKey: dashboardKey });
  useLiveEvent('alerts', refresh, { minIntervalMs: LIVE_INTERVAL_MS });
  // A device's state and sync show within a second of its report (issue 19, item 7): only the
  // fleet's figures are asked again, at most every FLEET_LIVE_MS (the server counts them).
  useLiveEvent(
    'devices',
    () => void client.invalidateQueries({ queryKey: fleetQueryOptions.queryKey, exact: true }),
    { minIntervalMs: FLEET_LIVE_MS },
  );

  const s = summary.data;
  const palette = theme.palette;
  const colors = [palette.error.dark, palette.warning.dark, palette.info.dark, palette.grey[600]];
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  // The server filters: only failed sources come, the first FAILED_SOURCES_SHOWN by name.
  const failed = sources.data?.data ?? [];
  const moreFailed = (sources.data?.recordsTotal ?? 0) - failed.length;
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        mb: 3,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(3, minmax(0, 1fr))' },
      }}
    >
      <Box sx={{ gridColumn: { lg: 'span 2' }, minWidth: 0 }}>
        <Card title={t('home.dashboard.rate')} testId="dashboard-rate">
          {s === undefined ? (
            <Skeleton variant="rounded" height={180} />
          ) : (
            <>
              <TimeChart
                label={t('home.dashboard.rate')}
                timeLabel={t('monitoring.alerts.time')}
                times={s.rate.map((b) => Date.parse(b.time) / 1000)}
                series={SEVERITY_KEYS.map((key, i) => ({
                  label: t(key),
                  color: colors[i] ?? palette.grey[600],
                  values: s.rate.map((b) => b.counts[i] ?? 0),
                }))}
                format={(v) => number.format(v)}
                height={180}
                testId="dashboard-rate-chart"
              />
              <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mt: 1 }}>
                {SEVERITY_KEYS.map((key, i) => (
                  <Link key={key} component={RouterLink} to={`${ALERTS}&severity=${i + 1}`}>
                    {t(key)}: {number.format(s.rate.reduce((n, b) => n + (b.counts[i] ?? 0), 0))}
                  </Link>
                ))}
              </Box>
            </>
          )}
        </Card>
      </Box>
      <Card title={t('home.dashboard.fleet')} testId="dashboard-fleet">
        {fleet.data === undefined ? (
          <Skeleton variant="rounded" height={120} />
        ) : (
          <FleetProblems summary={fleet.data} />
        )}
      </Card>
      <Card title={t('home.dashboard.topSignatures')} testId="dashboard-signatures">
        <CountList
          empty={t('home.dashboard.none')}
          rows={(s?.top_signatures ?? []).map((g) => ({
            key: `${g.gid}:${g.sid}`,
            label: g.msg ?? String(g.sid),
            to: `${ALERTS}&signature=${g.sid ?? ''}`,
            count: g.count,
          }))}
        />
      </Card>
      <Card title={t('home.dashboard.topSources')} testId="dashboard-sources">
        <CountList
          empty={t('home.dashboard.none')}
          rows={(s?.top_sources ?? []).map((r) => ({
            key: r.ip,
            label: r.ip,
            to: `${ALERTS}&src_ip=${encodeURIComponent(r.ip)}`,
            count: r.count,
          }))}
        />
      </Card>
      <Card title={t('home.dashboard.topDestinations')} testId="dashboard-destinations">
        <CountList
          empty={t('home.dashboard.none')}
          rows={(s?.top_destinations ?? []).map((r) => ({
            key: r.ip,
            label: r.ip,
            to: `${ALERTS}&dest_ip=${encodeURIComponent(r.ip)}`,
            count: r.count,
          }))}
        />
      </Card>
      <Card title={t('home.dashboard.failedSources')} testId="dashboard-failed-sources">
        {failed.length === 0 ? (
          <Typography color="text.secondary">{t('home.dashboard.none')}</Typography>
        ) : (
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {failed.map((src) => (
              <li key={src.id}>
                {/* The source's updates, the failed one first. */}
                <Link component={RouterLink} to={historyPath(src.id)} dir="auto">
                  {src.name}
                </Link>
                {src.last_update?.error && (
                  <Typography variant="caption" color="text.secondary" component="div">
                    {src.last_update.error}
                  </Typography>
                )}
              </li>
            ))}
            {moreFailed > 0 && (
              <Box component="li" sx={{ listStyle: 'none' }}>
                <Link component={RouterLink} to={sourcesPath('failed')}>
                  +{moreFailed}
                </Link>
              </Box>
            )}
          </Box>
        )}
      </Card>
    </Box>
  );
}

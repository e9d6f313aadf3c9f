import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import MuiAlert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import type { Device } from '@palisade/contract';
import { formatDateTime } from '../../../lib/format-date';
import { deviceStateLabel } from '../device-state';
import { formatBytes, formatPercent, formatRate } from '../format';
import { DeviceStatusChips } from './DeviceStatusChips';

const version = (value: number | null) => (value === null ? '–' : String(value));

const formatNumber = (value: number, language: string) =>
  new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(value);

/** The sensor's Suricata stats as figures; none when its agent reports none. */
function healthFigures(d: Device, t: TFunction, language: string) {
  const s = d.sensor;
  if (s === null) return [];
  const maybe = (value: number | null, unit = '') =>
    value === null ? '–' : `${formatNumber(value, language)}${unit}`;
  return [
    { label: t('monitoring.metrics.drops'), value: maybe(s.drop_percent, ' %') },
    { label: t('monitoring.metrics.alertsPerMin'), value: maybe(s.alerts_per_min) },
    {
      label: t('monitoring.metrics.rules'),
      value:
        s.rules_loaded === null
          ? '–'
          : d.policy_rules === null
            ? t('monitoring.health.rulesValue', {
                loaded: formatNumber(s.rules_loaded, language),
                failed: formatNumber(s.rules_failed ?? 0, language),
              })
            : t('monitoring.health.rulesIntended', {
                rendered: formatNumber(d.policy_rules, language),
                loaded: formatNumber(s.rules_loaded, language),
                failed: formatNumber(s.rules_failed ?? 0, language),
              }),
    },
    {
      label: t('monitoring.health.lastReload'),
      value:
        s.last_reload === null ? '–' : formatDateTime(s.last_reload, language) || s.last_reload,
    },
  ];
}
/** The device's state, figures, versions and what is wrong with it. */
export function DeviceSummary({ device: d }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const m = d.metrics;
  const figures: { label: string; value: string }[] = [
    {
      label: t('monitoring.metrics.cpu'),
      value: m === null ? '–' : formatPercent(m.cpu, language),
    },
    {
      label: t('monitoring.metrics.memory'),
      value:
        m === null
          ? '–'
          : t('monitoring.ofTotal', {
              used: formatBytes(m.memory_used, language),
              total: formatBytes(m.memory_total, language),
            }),
    },
    {
      label: t('monitoring.metrics.disk'),
      value:
        m === null
          ? '–'
          : t('monitoring.ofTotal', {
              used: formatBytes(m.disk_used, language),
              total: formatBytes(m.disk_total, language),
            }),
    },
    {
      label: t('monitoring.metrics.netIn'),
      value: m === null ? '–' : formatRate(m.net_in, language),
    },
    {
      label: t('monitoring.metrics.netOut'),
      value: m === null ? '–' : formatRate(m.net_out, language),
    },
    ...healthFigures(d, t, language),
  ];
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, display: 'grid', gap: 2, gridTemplateColumns: 'minmax(0, 1fr)' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          {d.name}
        </Typography>
        <DeviceStatusChips device={d} />
        <Button
          component={RouterLink}
          to={`/alerts?device=${d.id}`}
          size="small"
          startIcon={<NotificationsActiveIcon />}
          sx={{ marginInlineStart: 'auto' }}
        >
          {t('monitoring.allAlerts')}
        </Button>
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          alignItems: 'start',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' },
        }}
      >
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            gridTemplateColumns: 'max-content 1fr',
            columnGap: 2,
            rowGap: 0.5,
            '& dt': { color: 'text.secondary' },
            '& dd': { m: 0 },
          }}
        >
          <dt>{t('monitoring.state')}</dt>
          <dd data-testid="device-state">{deviceStateLabel(d.state, t)}</dd>
          <dt>{t('monitoring.lastSeen')}</dt>
          <dd>
            {d.last_seen === null ? t('monitoring.never') : formatDateTime(d.last_seen, language)}
          </dd>
          <dt>{t('monitoring.agentVersion')}</dt>
          <dd>{d.agent_version ?? '–'}</dd>
          <dt title={t('monitoring.alertsRejectedHint')}>{t('monitoring.alertsRejected')}</dt>
          <dd
            data-testid="device-alerts-rejected"
            title={t('monitoring.alertsRejectedHint')}
            style={d.alerts_rejected > 0 ? { fontWeight: 600 } : undefined}
          >
            {new Intl.NumberFormat(language).format(d.alerts_rejected)}
          </dd>
          {figures.map((f) => (
            <Box key={f.label} sx={{ display: 'contents' }}>
              <dt>{f.label}</dt>
              <dd>{f.value}</dd>
            </Box>
          ))}
        </Box>
        <VersionsTable device={d} />
      </Box>
      <HealthDegradedNote device={d} />
      <FirewallDriftNote device={d} />
      {d.last_error !== null && d.last_error !== '' ? (
        <MuiAlert severity="error" data-testid="device-last-error">
          <strong>{t('monitoring.lastError')}:</strong> {d.last_error}
        </MuiAlert>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('monitoring.noError')}
        </Typography>
      )}
    </Paper>
  );
}

/** Config and policy versions, the device's against the server's; a stale one stands out. */
function VersionsTable({ device: d }: { device: Device }) {
  const { t } = useTranslation();
  const stale = (local: number | null, remote: number) => local !== remote;
  return (
    <Table size="small" aria-label={t('monitoring.versions.title')}>
      <TableHead>
        <TableRow>
          <TableCell>{t('monitoring.versions.title')}</TableCell>
          <TableCell align="right">{t('monitoring.versions.local')}</TableCell>
          <TableCell align="right">{t('monitoring.versions.remote')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {[
          {
            id: 'config',
            label: t('monitoring.versions.config'),
            local: d.config_version_local,
            remote: d.config_version_remote,
          },
          {
            id: 'policy',
            label: t('monitoring.versions.policy'),
            local: d.policy_version_local,
            remote: d.policy_version_remote,
          },
        ].map((row) => (
          <TableRow key={row.id}>
            <TableCell component="th" scope="row">
              {row.label}
            </TableCell>
            <TableCell
              align="right"
              sx={{ color: stale(row.local, row.remote) ? 'warning.dark' : undefined }}
            >
              {version(row.local)}
            </TableCell>
            <TableCell align="right">{row.remote}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Why the sensor is degraded: drops or failed rules, with the rules' errors. */
function HealthDegradedNote({ device: d }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  if (d.health.status !== 'degraded') return null;
  return (
    <MuiAlert severity="warning" data-testid="device-health-degraded">
      <strong>{t('monitoring.health.degraded')}</strong>{' '}
      {d.health.reasons
        .map((reason) =>
          reason === 'drops'
            ? t('monitoring.health.drops', {
                percent: formatNumber(d.sensor?.drop_percent ?? 0, language),
              })
            : t('monitoring.health.rulesFailed', { n: d.sensor?.rules_failed ?? 0 }),
        )
        .join(' · ')}
      {(d.sensor?.rule_errors ?? []).length > 0 && (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2 }} data-testid="device-rule-errors">
          {(d.sensor?.rule_errors ?? []).map((error) => (
            <li key={error} dir="ltr" style={{ fontFamily: 'monospace', fontSize: '0.8rem' }}>
              {error}
            </li>
          ))}
        </Box>
      )}
    </MuiAlert>
  );
}

/** Palisade's firewall found changed outside Palisade: still so, or re-applied by the agent. */
function FirewallDriftNote({ device: d }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const firewall = d.firewall;
  if (firewall === null) return null;
  if (firewall.drift) {
    return (
      <MuiAlert severity="error" data-testid="device-firewall-drift">
        {t('monitoring.firewall.drift')}
      </MuiAlert>
    );
  }
  if (firewall.reapplied_at === null) return null;
  return (
    <MuiAlert severity="warning" data-testid="device-firewall-drift">
      {t('monitoring.firewall.reapplied', {
        time: formatDateTime(firewall.reapplied_at, i18n.language),
      })}
    </MuiAlert>
  );
}

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { TimeChart, type TimeSeries } from '../../../components/charts/TimeChart';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { useDeviceMonitor, type MetricSample } from '../api/device-monitor';
import { WINDOWS, formatBytes, formatPercent, formatRate, type WindowId } from '../format';

interface MetricsChartsProps {
  deviceId: number;
  windowId: WindowId;
  onWindowChange: (next: WindowId) => void;
}

interface Panel {
  id: string;
  title: string;
  series: TimeSeries[];
  format: (value: number) => string;
  range?: [number, number];
}

const WINDOW_LABELS = {
  '15m': 'monitoring.window.15m',
  '1h': 'monitoring.window.1h',
  '6h': 'monitoring.window.6h',
  '24h': 'monitoring.window.24h',
  '7d': 'monitoring.window.7d',
} as const satisfies Record<WindowId, string>;

const column = (samples: MetricSample[], pick: (s: MetricSample) => number | null) =>
  samples.map(pick);

/**
 * CPU, used memory, used disk and network in/out of one device over the chosen window; and,
 * when its agent reports Suricata's stats, capture drops, alerts per minute and rules.
 */
export function MetricsCharts({ deviceId, windowId, onWindowChange }: MetricsChartsProps) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const windowMs = WINDOWS.find((w) => w.id === windowId)?.ms ?? 3_600_000;
  const monitor = useDeviceMonitor(deviceId, windowMs);
  const samples = useMemo(() => monitor.data?.data ?? [], [monitor.data]);
  const language = i18n.language;

  const updatedAt = monitor.dataUpdatedAt;
  const span = useMemo<[number, number]>(
    () => [(updatedAt - windowMs) / 1000, updatedAt / 1000],
    [updatedAt, windowMs],
  );
  const times = useMemo(() => samples.map((s) => Date.parse(s.time) / 1000), [samples]);
  const panels = useMemo<Panel[]>(() => {
    const bytes = (v: number) => formatBytes(v, language);
    const { primary, secondary, success, warning, error } = theme.palette;
    const count = (v: number) =>
      new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(v);
    // Used memory and disk are drawn against the device's total, when it reports one.
    const last = samples.at(-1);
    const upTo = (total: number | undefined): [number, number] | undefined =>
      total !== undefined && total > 0 ? [0, total] : undefined;
    const health: Panel[] = [
      {
        id: 'drops',
        title: t('monitoring.metrics.drops'),
        format: (v) =>
          new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 2 }).format(
            v / 100,
          ),
        series: [
          {
            label: t('monitoring.metrics.drops'),
            color: error.dark,
            values: column(samples, (s) => s.drop_percent),
          },
        ],
      },
      {
        id: 'alert-rate',
        title: t('monitoring.metrics.alertsPerMin'),
        format: count,
        series: [
          {
            label: t('monitoring.metrics.alertsPerMin'),
            color: warning.dark,
            values: column(samples, (s) => s.alerts_per_min),
          },
        ],
      },
      {
        id: 'rules',
        title: t('monitoring.metrics.rules'),
        format: count,
        series: [
          {
            label: t('monitoring.metrics.rulesLoaded'),
            color: success.dark,
            values: column(samples, (s) => s.rules_loaded),
          },
          {
            label: t('monitoring.metrics.rulesFailed'),
            color: error.dark,
            values: column(samples, (s) => s.rules_failed),
          },
        ],
      },
    ];
    const reportsHealth = samples.some((s) => s.rules_loaded !== null || s.drop_percent !== null);
    return [
      {
        id: 'cpu',
        title: t('monitoring.metrics.cpu'),
        format: (v) => formatPercent(v, language),
        range: [0, 100],
        series: [
          {
            label: t('monitoring.metrics.cpu'),
            color: primary.main,
            values: column(samples, (s) => s.cpu),
          },
        ],
      },
      {
        id: 'memory',
        title: t('monitoring.metrics.memory'),
        format: bytes,
        range: upTo(last?.memory_total),
        series: [
          {
            label: t('monitoring.metrics.memory'),
            color: success.dark,
            values: column(samples, (s) => s.memory_used),
          },
        ],
      },
      {
        id: 'disk',
        title: t('monitoring.metrics.disk'),
        format: bytes,
        range: upTo(last?.disk_total),
        series: [
          {
            label: t('monitoring.metrics.disk'),
            color: warning.dark,
            values: column(samples, (s) => s.disk_used),
          },
        ],
      },
      {
        id: 'network',
        title: t('monitoring.metrics.network'),
        format: (v) => formatRate(v, language),
        series: [
          {
            label: t('monitoring.metrics.netIn'),
            color: primary.dark,
            values: column(samples, (s) => s.net_in),
          },
          {
            label: t('monitoring.metrics.netOut'),
            color: secondary.dark,
            values: column(samples, (s) => s.net_out),
          },
        ],
      },
      ...(reportsHealth ? health : []),
    ];
  }, [samples, t, language, theme.palette]);

  const error = monitor.isError ? apiErrorMessage(monitor.error) : null;
  return (
    <Box component="section" aria-label={t('monitoring.charts')}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {t('monitoring.charts')}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={windowId}
          aria-label={t('monitoring.window.label')}
          onChange={(_event, next: WindowId | null) => next !== null && onWindowChange(next)}
        >
          {WINDOWS.map((w) => (
            <ToggleButton key={w.id} value={w.id}>
              {t(WINDOW_LABELS[w.id])}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      <Box sx={{ height: 4 }}>{monitor.isFetching && <LinearProgress />}</Box>
      {error !== null ? (
        <Typography color="error" sx={{ py: 2 }}>
          {errorText(error, t)}
        </Typography>
      ) : !monitor.isPending && samples.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 2 }} data-testid="metrics-empty">
          {t('monitoring.noSamples')}
        </Typography>
      ) : (
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) minmax(0, 1fr)' },
          }}
        >
          {panels.map((panel) => (
            <Paper key={panel.id} variant="outlined" sx={{ p: 1.5, minWidth: 0 }}>
              <Typography variant="body2" component="h4" sx={{ fontWeight: 600, mb: 0.5 }}>
                {panel.title}
              </Typography>
              <TimeChart
                timeLabel={t('monitoring.alerts.time')}
                label={panel.title}
                testId={`chart-${panel.id}`}
                times={times}
                series={panel.series}
                format={panel.format}
                range={panel.range}
                span={span}
                height={160}
              />
            </Paper>
          ))}
        </Box>
      )}
    </Box>
  );
}

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { TimeChart } from '../../../components/charts/TimeChart';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { useDeviceMonitor } from '../api/device-monitor';
import { WINDOWS, type WindowId } from '../format';
import { useMetricPanels } from './useMetricPanels';

interface MetricsChartsProps {
  deviceId: number;
  windowId: WindowId;
  onWindowChange: (next: WindowId) => void;
}

const WINDOW_LABELS = {
  '15m': 'monitoring.window.15m',
  '1h': 'monitoring.window.1h',
  '6h': 'monitoring.window.6h',
  '24h': 'monitoring.window.24h',
  '7d': 'monitoring.window.7d',
} as const satisfies Record<WindowId, string>;

/**
 * CPU, used memory, used disk and network in/out of one device over the chosen window; and,
 * when its agent reports Suricata's stats, capture drops, alerts per minute and rules.
 */
export function MetricsCharts({ deviceId, windowId, onWindowChange }: MetricsChartsProps) {
  const { t } = useTranslation();
  const windowMs = WINDOWS.find((w) => w.id === windowId)?.ms ?? 3_600_000;
  const monitor = useDeviceMonitor(deviceId, windowMs);
  const samples = useMemo(() => monitor.data?.data ?? [], [monitor.data]);

  const updatedAt = monitor.dataUpdatedAt;
  const span = useMemo<[number, number]>(
    () => [(updatedAt - windowMs) / 1000, updatedAt / 1000],
    [updatedAt, windowMs],
  );
  const times = useMemo(() => samples.map((s) => Date.parse(s.time) / 1000), [samples]);
  const panels = useMetricPanels(samples);

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

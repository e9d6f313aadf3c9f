import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTheme } from '@mui/material/styles';
import type { TimeSeries } from '../../../components/charts/TimeChart';
import type { MetricSample } from '../api/device-monitor';
import { formatBytes, formatPercent, formatRate } from '../format';

export interface Panel {
  id: string;
  title: string;
  series: TimeSeries[];
  format: (value: number) => string;
  range?: [number, number];
}

const column = (samples: MetricSample[], pick: (s: MetricSample) => number | null) =>
  samples.map(pick);
/**
 * One chart each: CPU, memory, disk, network; and capture drops, alerts per minute and rules
 * when the device's agent reports Suricata's stats.
 */
export function useMetricPanels(samples: MetricSample[]): Panel[] {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const language = i18n.language;
  return useMemo<Panel[]>(() => {
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
}

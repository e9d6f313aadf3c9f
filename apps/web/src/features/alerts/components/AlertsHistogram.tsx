import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import type { AlertFilters } from '@palisade/contract';
import { TimeChart } from '../../../components/charts/TimeChart';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { alertHistogramQueryOptions } from '../api/alert-histogram';

/** Alerts matching the filters, counted over time. */
export function AlertsHistogram({ filters }: { filters: AlertFilters }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const histogram = useQuery(alertHistogramQueryOptions(filters));
  const buckets = useMemo(() => histogram.data?.data ?? [], [histogram.data]);
  const times = useMemo(() => buckets.map((b) => Date.parse(b.time) / 1000), [buckets]);
  const label = t('alerts.histogram.title');
  const series = useMemo(
    () => [
      {
        label: t('alerts.histogram.count'),
        color: theme.palette.primary.main,
        values: buckets.map((b) => b.count),
      },
    ],
    [buckets, t, theme.palette.primary.main],
  );
  const number = useMemo(
    () => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 }),
    [i18n.language],
  );
  const format = useMemo(() => (v: number) => number.format(v), [number]);
  const error = histogram.isError ? apiErrorMessage(histogram.error) : null;

  return (
    <Paper variant="outlined" sx={{ p: 1.5, mb: 2 }} data-testid="alerts-histogram">
      <Typography variant="body2" component="h2" sx={{ fontWeight: 600, mb: 0.5 }}>
        {label}
      </Typography>
      {error !== null ? (
        <Typography color="error">{errorText(error, t)}</Typography>
      ) : histogram.isPending ? (
        <Box sx={{ height: 120 }} />
      ) : buckets.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {t('alerts.empty')}
        </Typography>
      ) : (
        <TimeChart
          timeLabel={t('alerts.columns.time')}
          label={label}
          times={times}
          series={series}
          format={format}
          kind="bars"
          height={120}
        />
      )}
    </Paper>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { TimeChart } from '../../../components/charts/TimeChart';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format-date';
import { ruleActivityQueryOptions } from '../api/rule-analytics';

const DAY_S = 86_400;

/** One rule: its alerts per day, the devices where it fired, when it first and last fired. */
export function RuleActivityDialog({
  rule,
  days,
  onClose,
}: {
  rule: { gid: number; sid: number };
  days: number;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const activity = useQuery(ruleActivityQueryOptions(rule, days));
  const data = activity.data;
  const number = (n: number) => n.toLocaleString(i18n.language);
  const error = activity.isError ? apiErrorMessage(activity.error) : null;
  const start = data ? Date.parse(`${data.since}T00:00:00Z`) / 1000 : 0;
  const when = (time: string | null) =>
    time === null ? t('ruleAnalytics.never') : formatDateTime(time, i18n.language);
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="rule-activity-title">
      <DialogTitle id="rule-activity-title">
        {t('ruleAnalytics.ruleTitle', { rule: `${rule.gid}:${rule.sid}` })}
      </DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 1.5 }}>
        {activity.isPending && <LinearProgress aria-label={t('ruleAnalytics.loading')} />}
        {error !== null && <Alert severity="error">{errorText(error, t)}</Alert>}
        {data && (
          <>
            <Typography variant="subtitle1">{data.msg ?? t('ruleAnalytics.noMessage')}</Typography>
            <Typography variant="body2" data-testid="rule-activity-summary">
              {t('ruleAnalytics.ruleSummary', {
                alerts: number(data.count),
                devices: number(data.devices.length),
              })}
            </Typography>
            <Typography variant="body2" color="text.secondary" data-testid="rule-activity-span">
              {t('ruleAnalytics.firstLast', {
                first: when(data.first_seen),
                last: when(data.last_seen),
              })}
            </Typography>
            <TimeChart
              label={t('ruleAnalytics.perDayLabel', { counts: data.daily.join(', ') })}
              kind="bars"
              height={160}
              times={data.daily.map((_, index) => start + index * DAY_S)}
              series={[
                {
                  label: t('ruleAnalytics.alerts'),
                  color: theme.palette.primary.main,
                  values: data.daily,
                },
              ]}
              timeLabel={t('ruleAnalytics.day')}
              format={(value) => number(value)}
            />
            {data.devices.length > 0 && (
              <Table size="small" aria-label={t('ruleAnalytics.devices')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('ruleAnalytics.device')}</TableCell>
                    <TableCell align="right">{t('ruleAnalytics.alerts')}</TableCell>
                    <TableCell>{t('ruleAnalytics.lastAlert')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.devices.map((device) => (
                    <TableRow key={device.device_id}>
                      <TableCell>{device.device}</TableCell>
                      <TableCell align="right">{number(device.count)}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        {formatDateTime(device.last_seen, i18n.language)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

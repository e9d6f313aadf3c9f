import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDebounce } from 'use-debounce';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { apiErrorMessage, errorText } from '../../lib/errors';
import { DaysToggle, useDaysLabel } from '../page/DaysToggle';
import { backtestQueryOptions, type BacktestEntries } from './backtest';

/** Rows shown per table: the largest, enough to judge a change by. */
const SHOWN = 8;
/** Entries typed in a form are asked about once they have stood still this long. */
const SETTLE_MS = 400;

/** Entries are compared by content: a form re-creates them on every keystroke. */
const sameEntries = (a: BacktestEntries, b: BacktestEntries) =>
  JSON.stringify(a) === JSON.stringify(b);

const percent = (share: number, language: string) =>
  new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(share);

/**
 * "What this would have removed" (issue 20, backtest before saving): the stored alerts of the
 * policy's devices over the last 1, 7 or 30 days that the tuning entries would have removed,
 * per signature (with its share of that signature's alerts) and per device.
 */
export function BacktestPanel({
  policyId,
  entries,
}: {
  policyId: number;
  entries: BacktestEntries;
}) {
  const { t, i18n } = useTranslation();
  const [days, setDays] = useState<number>(7);
  const daysLabel = useDaysLabel();
  const [settled] = useDebounce(entries, SETTLE_MS, { equalityFn: sameEntries });
  const backtest = useQuery(backtestQueryOptions(policyId, days, settled));
  const result = backtest.data;
  const number = (n: number) => n.toLocaleString(i18n.language);
  const error = backtest.isError ? apiErrorMessage(backtest.error) : null;

  return (
    <Box
      component="section"
      aria-labelledby="backtest-title"
      data-testid="backtest"
      sx={{ mt: 2, p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography id="backtest-title" variant="subtitle2" sx={{ flex: 1 }}>
          {t('backtest.title')}
        </Typography>
        <DaysToggle days={days} onChange={setDays} label={t('backtest.window')} />
      </Box>
      <Box sx={{ height: 4, my: 0.5 }}>{backtest.isFetching && <LinearProgress />}</Box>
      {error !== null ? (
        <Alert severity="warning">{errorText(error, t)}</Alert>
      ) : result === undefined ? null : (
        <>
          <Typography data-testid="backtest-summary">
            {result.total === 0
              ? t('backtest.noAlerts', {
                  window: daysLabel(result.days),
                })
              : t('backtest.summary', {
                  removed: number(result.removed),
                  total: number(result.total),
                  window: daysLabel(result.days),
                  share: percent(result.removed / result.total, i18n.language),
                })}
          </Typography>
          {result.removed_earlier > 0 && (
            <Typography variant="body2" color="text.secondary" data-testid="backtest-earlier">
              {t('backtest.earlier', {
                earlier: number(result.removed_earlier),
                version: result.policy_version,
              })}
            </Typography>
          )}
          {result.unresolved_variables.length > 0 && (
            <Typography variant="body2" color="text.secondary">
              {t('backtest.unresolved', { names: result.unresolved_variables.join(', ') })}
            </Typography>
          )}
          {result.by_signature.length > 0 && (
            <Table size="small" aria-label={t('backtest.bySignature')} sx={{ mt: 1 }}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('backtest.signature')}</TableCell>
                  <TableCell align="right">{t('backtest.removed')}</TableCell>
                  <TableCell align="right">{t('backtest.share')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {result.by_signature.slice(0, SHOWN).map((s) => (
                  <TableRow key={`${s.gid}:${s.sid}`}>
                    <TableCell>
                      {s.msg ?? '—'} <span dir="ltr">({s.sid})</span>
                    </TableCell>
                    <TableCell align="right">
                      {number(s.removed)} / {number(s.total)}
                    </TableCell>
                    <TableCell align="right">{percent(s.share, i18n.language)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {result.by_device.some((d) => d.removed > 0) && (
            <Table size="small" aria-label={t('backtest.byDevice')} sx={{ mt: 1 }}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('backtest.device')}</TableCell>
                  <TableCell align="right">{t('backtest.removed')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {result.by_device
                  .filter((d) => d.removed > 0)
                  .slice(0, SHOWN)
                  .map((d) => (
                    <TableRow key={d.device_id}>
                      <TableCell>{d.device}</TableCell>
                      <TableCell align="right">
                        {number(d.removed)} / {number(d.total)}
                      </TableCell>
                    </TableRow>
                  ))}
              </TableBody>
            </Table>
          )}
        </>
      )}
    </Box>
  );
}

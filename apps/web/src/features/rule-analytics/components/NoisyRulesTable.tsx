import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { NoisyRule } from '@palisade/contract';
import { Sparkline } from '../../../components/charts/Sparkline';
import { formatDateTime } from '../../../lib/format-date';
import { percent, signatureOf } from './format';
import { RuleMessage } from './RuleMessage';

interface NoisyRulesTableProps {
  rules: NoisyRule[];
  onOpen: (rule: { gid: number; sid: number }) => void;
  /** Opens the newest alert of the rule, whose drawer offers the backtested tuning. */
  onTune?: (sid: number) => void;
}

/** The window's rules with the most alerts: share, devices, alerts per day, last alert. */
export function NoisyRulesTable({ rules, onOpen, onTune }: NoisyRulesTableProps) {
  const { t, i18n } = useTranslation();
  const number = (n: number) => n.toLocaleString(i18n.language);
  return (
    <Table size="small" aria-label={t('ruleAnalytics.noisiest')} data-testid="noisy-rules">
      <TableHead>
        <TableRow>
          <TableCell>{t('ruleAnalytics.rule')}</TableCell>
          <TableCell>{t('ruleAnalytics.message')}</TableCell>
          <TableCell align="right">{t('ruleAnalytics.alerts')}</TableCell>
          <TableCell align="right">{t('ruleAnalytics.share')}</TableCell>
          <TableCell align="right">{t('ruleAnalytics.devices')}</TableCell>
          <TableCell>{t('ruleAnalytics.perDay')}</TableCell>
          <TableCell>{t('ruleAnalytics.lastAlert')}</TableCell>
          {onTune && <TableCell />}
        </TableRow>
      </TableHead>
      <TableBody>
        {rules.map((rule) => {
          const { sid } = rule;
          return (
            <TableRow key={signatureOf(rule)}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{signatureOf(rule)}</TableCell>
              <TableCell>
                <RuleMessage rule={rule} onOpen={onOpen} />
              </TableCell>
              <TableCell align="right">{number(rule.count)}</TableCell>
              <TableCell align="right">{percent(rule.share, i18n.language)}</TableCell>
              <TableCell align="right">{number(rule.devices)}</TableCell>
              <TableCell>
                <Sparkline
                  series={rule.daily}
                  label={t('ruleAnalytics.perDayLabel', { counts: rule.daily.join(', ') })}
                />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {formatDateTime(rule.last_seen, i18n.language)}
              </TableCell>
              {onTune && (
                <TableCell>
                  {sid !== null && (
                    <Button
                      size="small"
                      onClick={() => onTune(sid)}
                      aria-label={t('ruleAnalytics.tuneRule', { rule: signatureOf(rule) })}
                    >
                      {t('ruleAnalytics.tune')}
                    </Button>
                  )}
                </TableCell>
              )}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

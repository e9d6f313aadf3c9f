import { useTranslation } from 'react-i18next';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { JumpedRule } from '@palisade/contract';
import { percent, signatureOf } from './format';
import { RuleMessage } from './RuleMessage';

/** Rules whose share of the last 24 hours jumped against their share of the days before. */
export function JumpedRulesTable({
  rules,
  onOpen,
}: {
  rules: JumpedRule[];
  onOpen: (rule: { gid: number; sid: number }) => void;
}) {
  const { t, i18n } = useTranslation();
  const number = (n: number, digits = 0) =>
    n.toLocaleString(i18n.language, { maximumFractionDigits: digits });
  return (
    <Table size="small" aria-label={t('ruleAnalytics.jumped')} data-testid="jumped-rules">
      <TableHead>
        <TableRow>
          <TableCell>{t('ruleAnalytics.rule')}</TableCell>
          <TableCell>{t('ruleAnalytics.message')}</TableCell>
          <TableCell align="right">{t('ruleAnalytics.last24h')}</TableCell>
          <TableCell align="right">{t('ruleAnalytics.baselinePerDay')}</TableCell>
          <TableCell align="right">{t('ruleAnalytics.shareChange')}</TableCell>
          <TableCell align="right">{t('ruleAnalytics.factor')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rules.map((rule) => (
          <TableRow key={signatureOf(rule)}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{signatureOf(rule)}</TableCell>
            <TableCell>
              <RuleMessage rule={rule} onOpen={onOpen} />
            </TableCell>
            <TableCell align="right">{number(rule.recent)}</TableCell>
            <TableCell align="right">{number(rule.baseline_per_day, 1)}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {t('ruleAnalytics.shareFromTo', {
                before: percent(rule.baseline_share, i18n.language),
                after: percent(rule.recent_share, i18n.language),
              })}
            </TableCell>
            <TableCell align="right">
              {rule.factor === null
                ? t('ruleAnalytics.new')
                : t('ruleAnalytics.times', { factor: number(rule.factor, 1) })}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FirewallRuleHits } from '@palisade/contract';
import { DaysToggle } from '../../../components/page/DaysToggle';

/** The window the hits column counts over: 1, 7 or 30 days. */
export function HitsWindow({ days, onChange }: { days: number; onChange: (days: number) => void }) {
  const { t } = useTranslation();
  return <DaysToggle days={days} onChange={onChange} label={t('firewall.hits.window')} />;
}

/**
 * A rule's packets over the window (bytes in the title); a rule that devices report and no
 * packet matched in 30 days is marked; "–" where no device reported the rule.
 */
export function HitsCell({ hits }: { hits: FirewallRuleHits | undefined }) {
  const { t, i18n } = useTranslation();
  if (hits === undefined || !hits.reported) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="rule-hits">
        –
      </Typography>
    );
  }
  const number = new Intl.NumberFormat(i18n.language, { notation: 'compact' });
  return (
    <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }}>
      <Typography
        variant="body2"
        data-testid="rule-hits"
        title={t('firewall.hits.bytes', {
          bytes: new Intl.NumberFormat(i18n.language).format(hits.bytes),
        })}
        sx={{ fontVariantNumeric: 'tabular-nums' }}
      >
        {number.format(hits.packets)}
      </Typography>
      {hits.idle && (
        <Chip
          size="small"
          color="warning"
          variant="outlined"
          label={t('firewall.hits.idle')}
          data-testid="rule-idle"
        />
      )}
    </Stack>
  );
}

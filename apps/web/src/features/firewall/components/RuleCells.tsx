import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { FirewallRule } from '@palisade/contract';
import { ACTION_COLOR, ACTION_KEY, CHAIN_KEY, PROTOCOL_KEY, STATE_KEY } from './labels';

// Left to right by the dir attribute, not CSS `direction`: the right-to-left styles would flip it.
const mono = { fontFamily: 'monospace', fontSize: 13 };

/** Where a rule matches: address list and ports, "any" when empty. */
export function Endpoint({ addresses, ports }: { addresses: string; ports: string }) {
  const { t } = useTranslation();
  return (
    <Box component="span" dir="ltr" sx={mono}>
      {addresses === '' ? t('firewall.any') : addresses}
      {ports !== '' && (
        <Typography component="span" dir="ltr" color="text.secondary" sx={mono}>
          {' '}
          : {ports}
        </Typography>
      )}
    </Box>
  );
}

export function ActionChip({ rule }: { rule: FirewallRule }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={ACTION_COLOR[rule.action]}
      variant={rule.enabled ? 'filled' : 'outlined'}
      label={t(ACTION_KEY[rule.action])}
    />
  );
}

export function ChainCell({ rule }: { rule: FirewallRule }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography variant="body2">{t(CHAIN_KEY[rule.chain])}</Typography>
      <Typography variant="caption" color="text.secondary">
        {t(PROTOCOL_KEY[rule.protocol])}
      </Typography>
    </>
  );
}

export function MatchCell({ rule }: { rule: FirewallRule }) {
  const { t } = useTranslation();
  const interfaces = [
    rule.in_interface !== '' ? `in ${rule.in_interface}` : '',
    rule.out_interface !== '' ? `out ${rule.out_interface}` : '',
  ].filter((text) => text !== '');
  return (
    <Typography variant="caption" color="text.secondary" component="div">
      {interfaces.length > 0 && (
        <Box component="span" dir="ltr" sx={mono}>
          {interfaces.join(' · ')}
        </Box>
      )}
      {interfaces.length > 0 && rule.states.length > 0 && ' · '}
      {rule.states.map((state) => t(STATE_KEY[state])).join(', ')}
    </Typography>
  );
}

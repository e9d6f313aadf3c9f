import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { formatDateTime } from '../../lib/format-date';

const WEEK_MS = 7 * 86_400_000;

/**
 * "Expires …" beside an item with an end date: warning within a week, error once due (the
 * server removes it within a minute). The reason, if any, is its tooltip.
 */
export function ExpiresChip({
  expiresAt,
  reason,
}: {
  expiresAt: string | null | undefined;
  reason?: string | null;
}) {
  const { t, i18n } = useTranslation();
  // The time of the first render: the colour does not change under the user's eyes.
  const [now] = useState(() => Date.now());
  if (!expiresAt) return null;
  const left = Date.parse(expiresAt) - now;
  const chip = (
    <Chip
      size="small"
      variant="outlined"
      data-testid="expires-chip"
      color={left <= 0 ? 'error' : left <= WEEK_MS ? 'warning' : 'default'}
      label={t('expiry.expires', { date: formatDateTime(expiresAt, i18n.language) })}
    />
  );
  return reason ? <Tooltip title={reason}>{chip}</Tooltip> : chip;
}

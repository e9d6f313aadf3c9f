import { useState, type MouseEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import IconButton from '@mui/material/IconButton';
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import { notifyApiError } from '../../../components/notifications/notify';
import { useListT } from '../../../lib/i18n';
import { starAlert } from '../api/star-alert';

interface StarToggleProps {
  alertId: number;
  starred: boolean;
  /** Viewers see the star but cannot change it (the server refuses them). */
  canWrite: boolean;
  size?: 'small' | 'medium';
}

/**
 * The star that escalates one alert: a toggle button (aria-pressed) for those who triage, a
 * plain mark for Viewers. It shows the new state while the request runs. One on every row of
 * the alerts list: its texts come from useListT, as PivotValue's do, and in the list it is a
 * plain button styled once by the theme (`button.star-toggle`, mui-theme.ts).
 */
export function StarToggle({ alertId, starred, canWrite, size = 'small' }: StarToggleProps) {
  const t = useListT();
  const client = useQueryClient();
  /** The state asked for while the request runs. */
  const [asked, setAsked] = useState<boolean | null>(null);
  const shown = asked ?? starred;
  if (!canWrite)
    return shown ? (
      <StarIcon
        fontSize={size}
        sx={{ color: 'warning.dark', verticalAlign: 'middle' }}
        titleAccess={t('alerts.star.starred')}
      />
    ) : null;
  const onClick = (event: MouseEvent) => {
    event.stopPropagation();
    setAsked(!shown);
    starAlert(client, alertId, !shown)
      .catch(notifyApiError)
      .finally(() => setAsked(null));
  };
  const props = {
    'aria-pressed': shown,
    'aria-label': t('alerts.star.toggle', { id: alertId }),
    title: shown ? t('alerts.star.remove') : t('alerts.star.add'),
    disabled: asked !== null,
    onClick,
  };
  const Icon = shown ? StarIcon : StarBorderIcon;
  if (size === 'small')
    return (
      <button type="button" className="star-toggle" {...props}>
        <Icon fontSize="small" />
      </button>
    );
  return (
    <IconButton {...props}>
      <Icon sx={shown ? { color: 'warning.dark' } : undefined} />
    </IconButton>
  );
}

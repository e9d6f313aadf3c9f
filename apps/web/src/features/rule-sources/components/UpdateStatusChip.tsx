import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Tooltip from '@mui/material/Tooltip';
import type { RuleSourceUpdateSummary } from '@palisade/contract';
import { isUpdateActive } from '../api/update-status';
import { PHASE_LABELS, STATUS_LABELS } from './labels';

const COLORS = {
  queued: 'default',
  running: 'info',
  succeeded: 'success',
  unchanged: 'default',
  failed: 'error',
} as const;

/** An update's status; a running one shows its phase with a spinner, a failed one its reason. */
export function UpdateStatusChip({ update }: { update: RuleSourceUpdateSummary | null }) {
  const { t } = useTranslation();
  if (update === null) {
    return <Chip size="small" variant="outlined" label={t('ruleSources.status.never')} />;
  }
  const label =
    update.status === 'running' && update.phase !== null
      ? t(PHASE_LABELS[update.phase])
      : t(STATUS_LABELS[update.status]);
  const chip = (
    <Chip
      size="small"
      data-testid="update-status"
      color={COLORS[update.status]}
      variant={update.status === 'unchanged' ? 'outlined' : 'filled'}
      icon={
        isUpdateActive(update.status) ? (
          <CircularProgress size={12} color="inherit" aria-hidden />
        ) : undefined
      }
      label={label}
    />
  );
  return update.error === null ? chip : <Tooltip title={update.error}>{chip}</Tooltip>;
}

import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import ToggleButton from '@mui/material/ToggleButton';
import Typography from '@mui/material/Typography';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import type { LiveMode } from './AlertsTable';

interface AlertsToolbarProps {
  live: LiveMode;
  onLiveChange: (live: LiveMode) => void;
  /** New alerts held behind the banner. */
  waiting: number;
  onShowNew: () => void;
  canWrite: boolean;
  /** Ids of the selected alerts on this page, and of all on it. */
  chosen: number[];
  visibleIds: number[];
  onSelectPage: (all: boolean) => void;
  ackPending: boolean;
  onAcknowledge: (acknowledged: boolean) => void;
  /** The list's total, once it has answered. */
  total: { count: number; exact: boolean } | undefined;
}

/** Above the alerts list: live controls, page selection and its actions, the total. */
export function AlertsToolbar(props: AlertsToolbarProps) {
  const { live, onLiveChange, waiting, onShowNew, canWrite, chosen, visibleIds } = props;
  const { onSelectPage, ackPending, onAcknowledge, total } = props;
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        flexWrap: 'wrap',
        mb: 1,
        minHeight: 40,
      }}
    >
      <LiveControls live={live} onLiveChange={onLiveChange} waiting={waiting} onShow={onShowNew} />
      {canWrite && (
        <>
          <FormControlLabel
            control={
              <Checkbox
                size="small"
                checked={chosen.length > 0 && chosen.length === visibleIds.length}
                indeterminate={chosen.length > 0 && chosen.length < visibleIds.length}
                onChange={(event) => onSelectPage(event.target.checked)}
              />
            }
            label={t('alerts.selectPage')}
          />
          <Button
            size="small"
            variant="outlined"
            startIcon={<DoneAllIcon />}
            disabled={chosen.length === 0 || ackPending}
            onClick={() => onAcknowledge(true)}
          >
            {t('alerts.ack.selected', { count: chosen.length })}
          </Button>
          <Button
            size="small"
            startIcon={<RestartAltIcon />}
            disabled={chosen.length === 0 || ackPending}
            onClick={() => onAcknowledge(false)}
          >
            {t('alerts.ack.reopenSelected', { count: chosen.length })}
          </Button>
        </>
      )}
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ marginInlineStart: 'auto' }}
        data-testid="alerts-total"
      >
        {total === undefined
          ? ''
          : total.exact
            ? t('alerts.total', { count: total.count })
            : t('alerts.totalAtLeast', { count: total.count })}
      </Typography>
    </Box>
  );
}

/** Pause, auto-insert, and the "N new alerts" button; always the same width, so nothing moves. */
function LiveControls(props: {
  live: LiveMode;
  onLiveChange: (live: LiveMode) => void;
  waiting: number;
  onShow: () => void;
}) {
  const { live, onLiveChange, waiting, onShow } = props;
  const { t } = useTranslation();
  return (
    <>
      <ToggleButton
        value="paused"
        size="small"
        selected={live.paused}
        onChange={() => onLiveChange({ ...live, paused: !live.paused })}
        aria-label={live.paused ? t('alerts.live.resume') : t('alerts.live.pause')}
        title={live.paused ? t('alerts.live.resume') : t('alerts.live.pause')}
        sx={{ py: 0.25 }}
      >
        {live.paused ? <PlayArrowIcon fontSize="small" /> : <PauseIcon fontSize="small" />}
      </ToggleButton>
      <FormControlLabel
        control={
          <Checkbox
            size="small"
            checked={live.auto}
            disabled={live.paused}
            onChange={(event) => onLiveChange({ ...live, auto: event.target.checked })}
          />
        }
        label={t('alerts.live.auto')}
      />
      <Box sx={{ minWidth: 150 }} aria-live="polite">
        {live.paused ? (
          <Typography variant="body2" color="text.secondary">
            {t('alerts.live.paused')}
          </Typography>
        ) : (
          waiting > 0 && (
            <Button size="small" variant="contained" onClick={onShow} data-testid="alerts-new">
              {t('alerts.live.newAlerts', { count: waiting })}
            </Button>
          )
        )}
      </Box>
    </>
  );
}

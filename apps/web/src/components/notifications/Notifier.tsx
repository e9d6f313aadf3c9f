import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import Snackbar from '@mui/material/Snackbar';
import SnackbarContent from '@mui/material/SnackbarContent';
import IconButton from '@mui/material/IconButton';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import CloseIcon from '@mui/icons-material/Close';
import { MuiProviders } from '../theme/MuiProviders';
import { notifications } from './queue';

/** The always-present notifications area: one snackbar fed by the queue (spec §4, §9). */
export function Notifier() {
  const { t } = useTranslation();
  const { current, open } = useSyncExternalStore(
    notifications.subscribe,
    notifications.getSnapshot,
    notifications.getSnapshot,
  );
  // The notice's time starts once it is on screen, not while this code was loading.
  const shownId = open ? (current?.id ?? null) : null;
  useEffect(() => {
    if (shownId !== null) notifications.displayed(shownId);
  }, [shownId]);
  if (current === null) return null;
  // Keys come from call sites as literals; the cast keeps i18next's typed keys at bay here.
  const text = current.raw ? current.content : t(current.content as 'app.name', current.params);
  return (
    <MuiProviders>
      <Snackbar
        open={open}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        sx={{ minWidth: 300, width: '50%', maxWidth: '85%' }}
      >
        <SnackbarContent
          role={current.color === 'error' ? 'alert' : 'status'}
          data-testid="notification"
          data-color={current.color}
          sx={{
            width: '100%',
            minHeight: 48,
            bgcolor: `${current.color}.main`,
            color: `${current.color}.contrastText`,
          }}
          message={
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
              {current.showProgress && (
                <CircularProgress size={18} color="inherit" aria-label={t('common.working')} />
              )}
              <span>{text}</span>
            </Stack>
          }
          action={
            <IconButton
              size="small"
              color="inherit"
              aria-label={t('common.close')}
              onClick={() => notifications.close()}
            >
              <CloseIcon fontSize="small" />
            </IconButton>
          }
        />
      </Snackbar>
    </MuiProviders>
  );
}

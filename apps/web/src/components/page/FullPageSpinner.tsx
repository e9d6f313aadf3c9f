import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** Spec §2: while the login state is unknown a 'Loading...' spinner stands in for the screen. */
export function FullPageSpinner() {
  const { t } = useTranslation();
  return (
    <Box
      role="progressbar"
      aria-busy="true"
      aria-label={t('common.loading')}
      sx={{
        minHeight: '60vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
      }}
    >
      <CircularProgress />
      <Typography color="text.secondary">{t('common.loading')}</Typography>
    </Box>
  );
}

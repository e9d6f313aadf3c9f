import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The copyright line (spec §2 reads 2025). */
export function Copyright() {
  const { t } = useTranslation();
  return (
    <Typography variant="caption" color="text.secondary" component="p" sx={{ textAlign: 'center' }}>
      {t('app.copyright', { year: 2025 })}
    </Typography>
  );
}

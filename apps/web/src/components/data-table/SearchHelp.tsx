import { useTranslation } from 'react-i18next';
import Typography from '@mui/material/Typography';

/**
 * The search syntax every list's search box takes (@palisade/search-syntax, read alike by the
 * server and the console): shown under each box, the same words on every list.
 */
export function SearchHelp({ id }: { id?: string }) {
  const { t } = useTranslation();
  return (
    <Typography
      id={id}
      variant="caption"
      color="text.secondary"
      component="p"
      data-testid="search-help"
      sx={{ mt: 0.5, mx: 1.75 }}
    >
      {t('table.searchHelp')}
    </Typography>
  );
}

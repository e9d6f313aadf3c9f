import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';

/** Suricata severity: 1 is the most severe. */
export function SeverityChip({ severity }: { severity: number | null }) {
  const { t } = useTranslation();
  if (severity === null) return <>–</>;
  const color = severity <= 1 ? 'error' : severity === 2 ? 'warning' : 'default';
  return (
    <Chip
      size="small"
      color={color}
      label={severity}
      aria-label={t('alerts.severityLabel', { severity })}
    />
  );
}

import { useListT } from '../../../lib/i18n';

/**
 * Suricata severity: 1 is the most severe. One on every row of the alerts list, so it is a
 * plain mark styled once by the theme (`.cell-mark`, mui-theme.ts), not a Chip, and its label
 * comes through useListT, as PivotValue's texts do.
 */
export function SeverityChip({ severity }: { severity: number | null }) {
  const t = useListT();
  if (severity === null) return <>–</>;
  const tone = severity <= 1 ? ' error' : severity === 2 ? ' warning' : '';
  return (
    <span
      className={`cell-mark${tone}`}
      role="img"
      aria-label={t('alerts.severityLabel', { severity })}
    >
      {severity}
    </span>
  );
}

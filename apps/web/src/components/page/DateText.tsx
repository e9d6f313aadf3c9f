import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../lib/format-date';

/**
 * A date in the spec's short format; the full date and time shows on hover (two edits on one
 * day look alike otherwise).
 */
export function DateText({ value }: { value: string }) {
  const { i18n } = useTranslation();
  return (
    <time dateTime={value} title={formatDateTime(value, i18n.language)}>
      {formatDate(value, i18n.language)}
    </time>
  );
}

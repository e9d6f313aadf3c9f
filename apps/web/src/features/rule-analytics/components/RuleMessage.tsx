import { useTranslation } from 'react-i18next';
import Link from '@mui/material/Link';

/** A rule's message, a link that opens the rule's days and devices when it names a sid. */
export function RuleMessage({
  rule,
  onOpen,
}: {
  rule: { gid: number | null; sid: number | null; msg: string | null };
  onOpen: (rule: { gid: number; sid: number }) => void;
}) {
  const { t } = useTranslation();
  const { gid, sid } = rule;
  if (sid === null) return <>{rule.msg ?? '–'}</>;
  return (
    <Link
      component="button"
      type="button"
      underline="hover"
      sx={{ textAlign: 'start' }}
      onClick={() => onOpen({ gid: gid ?? 1, sid })}
    >
      {rule.msg ?? t('ruleAnalytics.noMessage')}
    </Link>
  );
}

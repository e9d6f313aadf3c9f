import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '../../../lib/format-date';
import { ruleChangesQueryOptions } from '../api/rule-changes';
import { KIND_LABELS } from './labels';
import { changelogPath } from './paths';

/**
 * "Changed in update N on …" for a rule a source update touched, linking to that changelog
 * entry; nothing for a rule no update changed. The alerts and policies screens show it.
 */
export function RuleChangeNote({ gid, sid }: { gid: number; sid: number }) {
  const { t, i18n } = useTranslation();
  const changes = useQuery(ruleChangesQueryOptions(gid, sid));
  const latest = changes.data?.data[0];
  if (latest === undefined) return null;
  const earlier = (changes.data?.data.length ?? 1) - 1;
  return (
    <Typography variant="body2" data-testid="rule-change-note">
      <Link component={RouterLink} to={changelogPath(latest.source_id, latest.update_id, sid)}>
        {t('ruleSources.note.changedIn', {
          kind: t(KIND_LABELS[latest.kind]),
          update: latest.update_id,
          date: formatDateTime(latest.at, i18n.language),
        })}
      </Link>
      {earlier > 0 && (
        <Typography component="span" variant="body2" color="text.secondary">
          {' '}
          {t('ruleSources.note.earlier', { n: earlier })}
        </Typography>
      )}
    </Typography>
  );
}

import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { RuleSource } from '@palisade/contract';
import { historyPath, sourcesPath } from './paths';

/** Breadcrumbs from the source list down to where the user is, with actions at the end. */
export function SourceHeader({
  source,
  current,
  actions,
}: {
  source: RuleSource | undefined;
  /** The last crumb; absent on the source's own history. */
  current?: string;
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const name = source?.name ?? '…';
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
      <Breadcrumbs aria-label={t('ruleSources.breadcrumbs')} sx={{ flexGrow: 1 }}>
        <Link component={RouterLink} to={sourcesPath()}>
          {t('ruleSources.title')}
        </Link>
        {current === undefined || source === undefined ? (
          <Typography color="text.primary">{name}</Typography>
        ) : (
          <Link component={RouterLink} to={historyPath(source.id)}>
            {name}
          </Link>
        )}
        {current !== undefined && <Typography color="text.primary">{current}</Typography>}
      </Breadcrumbs>
      {actions}
    </Box>
  );
}

import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ExpiringKind } from '@palisade/contract';
import { formatDateTime } from '../../../lib/format-date';
import { expiringQueryOptions } from '../api/list-expiring';
import { editorPath } from './paths';

const KIND_KEY = {
  override: 'expiry.kind.override',
  threshold: 'expiry.kind.threshold',
  firewall_rule: 'expiry.kind.firewallRule',
} as const satisfies Record<ExpiringKind, string>;

/**
 * "Expiring in 7 days": what the server will remove soon (and what it is removing now), so that
 * an operator can extend what must stay; each item opens the editor holding it. `kinds` keeps
 * only those kinds (the firewall page lists its rules). Nothing is shown while nothing expires.
 */
export function ExpiringList({
  days = 7,
  kinds,
}: {
  days?: number;
  kinds?: readonly ExpiringKind[];
}) {
  const { t, i18n } = useTranslation();
  const expiring = useQuery(expiringQueryOptions(days));
  const items = (expiring.data?.data ?? []).filter(
    (item) => kinds === undefined || kinds.includes(item.kind),
  );
  if (items.length === 0) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} aria-labelledby="expiring-title">
      <Typography id="expiring-title" variant="subtitle1" component="h2">
        {t('expiry.title', { days })}
      </Typography>
      <List dense data-testid="expiring-list">
        {items.map((item) => (
          <ListItem
            key={`${item.kind}-${item.object_id}-${item.label}`}
            disablePadding
            data-testid="expiring-item"
          >
            <ListItemButton component={RouterLink} to={editorPath(item)} sx={{ px: 0 }}>
              <Chip size="small" label={t(KIND_KEY[item.kind])} sx={{ mr: 1 }} />
              <ListItemText
                primary={
                  <>
                    {item.object_name} · <bdi style={{ fontFamily: 'monospace' }}>{item.label}</bdi>
                  </>
                }
                secondary={[
                  t('expiry.expires', { date: formatDateTime(item.expires_at, i18n.language) }),
                  item.reason,
                ]
                  .filter(Boolean)
                  .join(' — ')}
              />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}

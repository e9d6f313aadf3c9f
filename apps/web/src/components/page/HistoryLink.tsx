import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import HistoryIcon from '@mui/icons-material/History';
import type { AuditObjectType } from '@palisade/contract';
import { session } from '../../lib/session';
import { useStore } from '../../lib/store';

/** The audit log filtered to one object (its own history). */
export const historyPath = (type: AuditObjectType, id: number) =>
  `/audit?${new URLSearchParams({ object_type: type, object_id: String(id) }).toString()}`;

/**
 * "History": an editor's way to the audit log of its object. The log is for Administrators,
 * so others do not see the button.
 */
export function HistoryLink({
  type,
  id,
}: {
  type: AuditObjectType;
  id: number | null | undefined;
}) {
  const { t } = useTranslation();
  const { user, authDisabled } = useStore(session);
  const admin = authDisabled || (user?.role === 'Administrator' && user.is_active);
  if (!admin || id === null || id === undefined) return null;
  return (
    <Button
      component={RouterLink}
      to={historyPath(type, id)}
      startIcon={<HistoryIcon />}
      size="small"
      data-testid="history-link"
      sx={{ marginInlineEnd: 'auto' }}
    >
      {t('audit.history')}
    </Button>
  );
}

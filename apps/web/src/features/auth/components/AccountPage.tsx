import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import LogoutIcon from '@mui/icons-material/Logout';
import { FullPageSpinner } from '../../../components/page/FullPageSpinner';
import { PageShell } from '../../../components/page/PageShell';
import { useMe } from '../api/me';
import { signOut } from '../session-flow';
import { PasswordForm } from './PasswordForm';
import { ProfileForm } from './ProfileForm';

/** Account: organization, names, e-mail, role, password change, logout (spec §2). */
export function AccountPage() {
  const { t } = useTranslation();
  const user = useMe();
  const logoutButton = (
    <Button variant="outlined" startIcon={<LogoutIcon />} onClick={signOut}>
      {t('auth.logout')}
    </Button>
  );
  return (
    <PageShell title={t('account.title')} actions={logoutButton}>
      {user === null ? (
        <FullPageSpinner />
      ) : (
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 7 }}>
            <ProfileForm user={user} />
          </Grid>
          <Grid size={{ xs: 12, md: 5 }}>
            <PasswordForm />
          </Grid>
        </Grid>
      )}
    </PageShell>
  );
}

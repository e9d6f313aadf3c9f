import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { UserCreate, type User } from '@palisade/contract';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { roleLabelKey } from '../../../lib/role-label';
import { formatDate } from '../../../lib/format-date';
import { useUpdateMe } from '../api/update-me';

const ProfileSchema = UserCreate.pick({ email: true, first_name: true, last_name: true });

export function ProfileForm({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const update = useUpdateMe();
  const roleName = (role: string) => {
    const key = roleLabelKey(role);
    return key === null ? role : t(key);
  };
  const { control, handleSubmit, formState } = useForm({
    resolver: zodResolver(ProfileSchema),
    values: { email: user.email, first_name: user.first_name, last_name: user.last_name },
  });
  useUnsavedChangesGuard(formState.isDirty);

  const onSubmit = handleSubmit(async (body) => {
    try {
      await withProgress({ progress: 'account.saving', success: 'account.saved' }, () =>
        update.mutateAsync(body),
      );
    } catch (failure) {
      notifyApiError(failure, { conflict: 'errors.emailTaken' });
    }
  });

  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Typography variant="h6" component="h2">
        {t('account.profile')}
      </Typography>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField
          label={t('auth.fields.organization')}
          value={user.organization}
          fullWidth
          margin="normal"
          slotProps={{ input: { readOnly: true } }}
        />
        <TextField
          label={t('account.role')}
          value={roleName(user.role)}
          fullWidth
          margin="normal"
          slotProps={{ input: { readOnly: true } }}
        />
        <Stack direction="row" spacing={2}>
          <FormTextField control={control} name="first_name" label={t('auth.fields.firstName')} />
          <FormTextField control={control} name="last_name" label={t('auth.fields.lastName')} />
        </Stack>
        <FormTextField control={control} name="email" label={t('auth.fields.email')} type="email" />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('account.memberSince', { date: formatDate(user.created_at, i18n.language) })}
        </Typography>
        <Button type="submit" variant="contained" sx={{ mt: 2 }} loading={formState.isSubmitting}>
          {t('common.save')}
        </Button>
      </form>
    </Paper>
  );
}

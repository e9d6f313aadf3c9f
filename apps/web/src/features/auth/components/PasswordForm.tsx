import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { z } from 'zod';
import { NewPassword, ValidationMessage } from '@palisade/contract';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifyApiError, notifyErrorKey } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { ApiError } from '../../../lib/api-client';
import { useUpdateMe } from '../api/update-me';

const PasswordSchema = z
  .object({
    current_password: z.string().min(1, ValidationMessage.required),
    password: NewPassword,
    confirm: z.string(),
  })
  .refine((v) => v.confirm === v.password, {
    message: ValidationMessage.passwordsMustMatch,
    path: ['confirm'],
  });

/** Change password: the current one, the new one (spec §5 rules) and its confirmation. */
export function PasswordForm() {
  const { t } = useTranslation();
  const update = useUpdateMe();
  const { control, handleSubmit, formState, reset } = useForm({
    resolver: zodResolver(PasswordSchema),
    defaultValues: { current_password: '', password: '', confirm: '' },
  });

  useUnsavedChangesGuard(formState.isDirty);
  const onSubmit = handleSubmit(async ({ current_password, password }) => {
    try {
      await withProgress(
        { progress: 'account.changingPassword', success: 'account.passwordChanged' },
        () => update.mutateAsync({ current_password, password }),
      );
      reset();
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400)
        notifyErrorKey('account.incorrectPassword');
      else notifyApiError(failure);
    }
  });

  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Typography variant="h6" component="h2">
        {t('account.changePassword')}
      </Typography>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <FormTextField
          control={control}
          name="current_password"
          label={t('auth.fields.currentPassword')}
          type="password"
          autoComplete="current-password"
        />
        <FormTextField
          control={control}
          name="password"
          label={t('auth.fields.newPassword')}
          type="password"
          autoComplete="new-password"
          helperText={t('auth.passwordRules')}
        />
        <FormTextField
          control={control}
          name="confirm"
          label={t('auth.fields.confirm')}
          type="password"
          autoComplete="new-password"
        />
        <Button type="submit" variant="contained" sx={{ mt: 2 }} loading={formState.isSubmitting}>
          {t('account.changePassword')}
        </Button>
      </form>
    </Paper>
  );
}

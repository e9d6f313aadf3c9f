import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { z } from 'zod';
import { ResetPassword, ValidationMessage } from '@palisade/contract';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifyErrorKey, notifySuccess } from '../../../components/notifications/notify';
import { recoveryErrorKey } from '../../../lib/errors';
import { resetPassword } from '../api/reset-password';
import { AuthCard } from './AuthCard';

const RecoverSchema = ResetPassword.pick({ new_password: true })
  .extend({ confirm: z.string() })
  .refine((v) => v.confirm === v.new_password, {
    message: ValidationMessage.passwordsMustMatch,
    path: ['confirm'],
  });

/** /reset-password?token=… from the recovery e-mail. */
export function RecoverPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { control, handleSubmit, formState } = useForm({
    resolver: zodResolver(RecoverSchema),
    defaultValues: { new_password: '', confirm: '' },
  });

  const onSubmit = handleSubmit(async ({ new_password }) => {
    try {
      await resetPassword({ token, new_password });
      notifySuccess('auth.reset.done');
      await navigate('/login', { replace: true });
    } catch (failure) {
      notifyErrorKey(recoveryErrorKey(failure));
    }
  });

  const footer = (
    <Link component={RouterLink} to="/login">
      {t('auth.lost.back')}
    </Link>
  );
  if (token === '') {
    return (
      <AuthCard title={t('auth.reset.title')} footer={footer}>
        <Alert severity="warning" sx={{ mt: 2 }}>
          {t('auth.reset.noToken')}{' '}
          <Link component={RouterLink} to="/lost">
            {t('auth.login.lost')}
          </Link>
        </Alert>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('auth.reset.title')} footer={footer}>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <FormTextField
          control={control}
          name="new_password"
          label={t('auth.fields.newPassword')}
          type="password"
          autoComplete="new-password"
          autoFocus
          helperText={t('auth.passwordRules')}
        />
        <FormTextField
          control={control}
          name="confirm"
          label={t('auth.fields.confirm')}
          type="password"
          autoComplete="new-password"
        />
        <Button
          type="submit"
          variant="contained"
          fullWidth
          size="large"
          sx={{ mt: 2 }}
          loading={formState.isSubmitting}
        >
          {t('auth.reset.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}

import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { z } from 'zod';
import { UserRegister, ValidationMessage } from '@palisade/contract';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifyErrorKey, notifySuccess } from '../../../components/notifications/notify';
import { loginErrorKey, registerErrorKey } from '../../../lib/errors';
import { registerUser } from '../api/register';
import { signIn } from '../session-flow';
import { AuthCard } from './AuthCard';

const RegisterSchema = UserRegister.extend({ confirm: z.string() }).refine(
  (v) => v.confirm === v.password,
  {
    message: ValidationMessage.passwordsMustMatch,
    path: ['confirm'],
  },
);

export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { control, handleSubmit, formState } = useForm({
    resolver: zodResolver(RegisterSchema),
    defaultValues: {
      organization: '',
      first_name: '',
      last_name: '',
      email: '',
      password: '',
      confirm: '',
    },
  });

  const onSubmit = handleSubmit(async ({ confirm: _confirm, ...body }) => {
    try {
      await registerUser(body);
    } catch (failure) {
      notifyErrorKey(registerErrorKey(failure));
      return;
    }
    notifySuccess('auth.register.done');
    try {
      await signIn(body.email, body.password);
      notifySuccess('auth.loggedIn');
      await navigate('/devices', { replace: true });
    } catch (failure) {
      notifyErrorKey(loginErrorKey(failure));
      await navigate('/login');
    }
  });

  return (
    <AuthCard
      title={t('auth.register.title')}
      footer={
        <Link component={RouterLink} to="/login">
          {t('auth.register.haveAccount')}
        </Link>
      }
    >
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <FormTextField
          control={control}
          name="organization"
          label={t('auth.fields.organization')}
          autoFocus
        />
        <Stack direction="row" spacing={2}>
          <FormTextField
            control={control}
            name="first_name"
            label={t('auth.fields.firstName')}
            autoComplete="given-name"
          />
          <FormTextField
            control={control}
            name="last_name"
            label={t('auth.fields.lastName')}
            autoComplete="family-name"
          />
        </Stack>
        <FormTextField
          control={control}
          name="email"
          label={t('auth.fields.email')}
          type="email"
          autoComplete="email"
        />
        <FormTextField
          control={control}
          name="password"
          label={t('auth.fields.password')}
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
        <Button
          type="submit"
          variant="contained"
          fullWidth
          size="large"
          sx={{ mt: 2 }}
          loading={formState.isSubmitting}
        >
          {t('auth.register.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}

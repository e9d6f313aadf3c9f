import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import type { z } from 'zod';
import { LoginForm, ValidationMessage } from '@palisade/contract';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifySuccess } from '../../../components/notifications/notify';
import { loginErrorKey, type ErrorKey } from '../../../lib/errors';
import { signIn } from '../session-flow';
import { AuthCard } from './AuthCard';

/** Sign-in accepts any stored password of 5+ characters (spec §5's shorter rule). */
const LoginSchema = LoginForm.pick({ username: true }).extend({
  password: LoginForm.shape.password.min(5, ValidationMessage.min5),
});

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [error, setError] = useState<ErrorKey | null>(null);
  const { control, handleSubmit, formState } = useForm<z.input<typeof LoginSchema>>({
    resolver: zodResolver(LoginSchema),
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = handleSubmit(async ({ username, password }) => {
    setError(null);
    try {
      await signIn(client, username, password);
      notifySuccess('auth.loggedIn');
      await navigate('/devices', { replace: true });
    } catch (failure) {
      setError(loginErrorKey(failure));
    }
  });

  return (
    <AuthCard
      title={t('auth.login.title')}
      footer={
        <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
          <Link component={RouterLink} to="/lost">
            {t('auth.login.lost')}
          </Link>
          <Link component={RouterLink} to="/register">
            {t('auth.login.register')}
          </Link>
        </Stack>
      }
    >
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        {error !== null && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="login-error">
            {t(error)}
          </Alert>
        )}
        <FormTextField
          control={control}
          name="username"
          label={t('auth.fields.email')}
          type="email"
          autoComplete="username"
          autoFocus
        />
        <FormTextField
          control={control}
          name="password"
          label={t('auth.fields.password')}
          type="password"
          autoComplete="current-password"
        />
        <Button
          type="submit"
          variant="contained"
          fullWidth
          size="large"
          sx={{ mt: 2 }}
          loading={formState.isSubmitting}
        >
          {t('auth.login.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}

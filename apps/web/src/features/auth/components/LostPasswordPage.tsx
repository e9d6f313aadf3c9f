import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { z } from 'zod';
import { Email } from '@palisade/contract';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifyErrorKey, notifySuccess } from '../../../components/notifications/notify';
import { recoveryErrorKey } from '../../../lib/errors';
import { requestPasswordRecovery } from '../api/password-recovery';
import { AuthCard } from './AuthCard';

const LostSchema = z.object({ email: Email });

export function LostPasswordPage() {
  const { t } = useTranslation();
  const [sent, setSent] = useState(false);
  const { control, handleSubmit, formState } = useForm({
    resolver: zodResolver(LostSchema),
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      await requestPasswordRecovery(email);
      setSent(true);
      notifySuccess('auth.lost.sent');
    } catch (failure) {
      notifyErrorKey(recoveryErrorKey(failure));
    }
  });

  return (
    <AuthCard
      title={t('auth.lost.title')}
      footer={
        <Link component={RouterLink} to="/login">
          {t('auth.lost.back')}
        </Link>
      }
    >
      {sent ? (
        <Alert severity="success" sx={{ mt: 2 }} data-testid="lost-sent">
          {t('auth.lost.sent')}
        </Alert>
      ) : (
        <form noValidate onSubmit={(event) => void onSubmit(event)}>
          <FormTextField
            control={control}
            name="email"
            label={t('auth.fields.email')}
            type="email"
            autoComplete="email"
            autoFocus
            helperText={t('auth.lost.hint')}
          />
          <Button
            type="submit"
            variant="contained"
            fullWidth
            size="large"
            sx={{ mt: 2 }}
            loading={formState.isSubmitting}
          >
            {t('auth.lost.submit')}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

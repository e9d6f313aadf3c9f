import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { z } from 'zod';
import { NewPassword, UserUpdate, type User } from '@palisade/contract';
import { FormSelect } from '../../../components/form/FormSelect';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FormTextField } from '../../../components/form/FormTextField';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { roleLabelKey } from '../../../lib/role-label';
import { rolesQueryOptions } from '../api/roles';

/** Create and edit share one form: on edit an empty password leaves it unchanged. */
export const UserFormSchema = UserUpdate.extend({
  email: UserUpdate.shape.email.unwrap(),
  password: z.union([z.literal(''), NewPassword]),
  role: z.string().min(1),
});
export type UserFormValues = z.output<typeof UserFormSchema>;

interface UserFormProps {
  user?: User;
  requirePassword: boolean;
  submitLabel: string;
  /** Saves; after a save and before leaving the page it calls `saved`, so nothing is asked. */
  onSubmit: (values: UserFormValues, saved: () => void) => Promise<void>;
}

export function UserForm({ user, requirePassword, submitLabel, onSubmit }: UserFormProps) {
  const { t } = useTranslation();
  const roles = useQuery(rolesQueryOptions);
  const schema = requirePassword
    ? UserFormSchema.extend({ password: NewPassword })
    : UserFormSchema;
  const { control, handleSubmit, formState } = useForm<
    z.input<typeof UserFormSchema>,
    unknown,
    UserFormValues
  >({
    resolver: zodResolver(schema),
    values: {
      email: user?.email ?? '',
      first_name: user?.first_name ?? '',
      last_name: user?.last_name ?? '',
      role: user?.role ?? 'Viewer',
      is_active: user?.is_active ?? true,
      password: '',
    },
  });
  const guard = useUnsavedChangesGuard(formState.isDirty);
  const roleOptions = (roles.data ?? [user?.role ?? 'Viewer']).map((role) => {
    const key = roleLabelKey(role);
    return { value: role, label: key === null ? role : t(key) };
  });
  return (
    <Paper variant="outlined" sx={{ p: 3, maxWidth: 640 }}>
      <form
        noValidate
        onSubmit={(event) => void handleSubmit((values) => onSubmit(values, guard.release))(event)}
      >
        <FormTextField control={control} name="email" label={t('auth.fields.email')} type="email" />
        <Stack direction="row" spacing={2}>
          <FormTextField control={control} name="first_name" label={t('auth.fields.firstName')} />
          <FormTextField control={control} name="last_name" label={t('auth.fields.lastName')} />
        </Stack>
        <FormSelect control={control} name="role" label={t('account.role')} options={roleOptions} />
        <FormTextField
          control={control}
          name="password"
          label={t('auth.fields.password')}
          type="password"
          autoComplete="new-password"
          helperText={requirePassword ? t('auth.passwordRules') : t('users.passwordUnchanged')}
        />
        <FormSwitch control={control} name="is_active" label={t('users.active')} />
        <Stack direction="row" sx={{ mt: 2 }}>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

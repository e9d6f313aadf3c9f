import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { z } from 'zod';
import { OrganizationSettings } from '@palisade/contract';
import { FormSelect } from '../../../components/form/FormSelect';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { useSaveDeploySettings } from '../api/deployments';

const shape = OrganizationSettings.shape;
/** The contract's settings, the numbers read from text inputs. */
const SettingsForm = OrganizationSettings.extend({
  canary_wait_minutes: z.coerce.number().pipe(shape.canary_wait_minutes),
  canary_alert_factor: z.coerce.number().pipe(shape.canary_alert_factor),
  canary_heartbeat_grace_seconds: z.coerce.number().pipe(shape.canary_heartbeat_grace_seconds),
});

/** Administrators: apply every save at once, or stage saves until Deploy, and the canary gate. */
export function DeploySettingsForm({ settings }: { settings: OrganizationSettings }) {
  const { t } = useTranslation();
  const save = useSaveDeploySettings();
  const { control, handleSubmit, formState } = useForm<
    z.input<typeof SettingsForm>,
    unknown,
    z.output<typeof SettingsForm>
  >({
    resolver: zodResolver(SettingsForm),
    values: settings,
  });
  useUnsavedChangesGuard(formState.isDirty);

  const onSubmit = handleSubmit(async (body) => {
    try {
      await withProgress(
        { progress: 'deploy.settings.saving', success: 'deploy.settings.saved' },
        () => save.mutateAsync(body),
      );
    } catch (failure) {
      notifyApiError(failure);
    }
  });

  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
      <Typography variant="h6" component="h2">
        {t('deploy.settings.title')}
      </Typography>
      <form noValidate onSubmit={(event) => void onSubmit(event)} data-testid="deploy-settings">
        <FormSelect
          control={control}
          name="deploy_mode"
          label={t('deploy.settings.mode')}
          options={[
            { value: 'immediate', label: t('deploy.settings.immediate') },
            { value: 'staged', label: t('deploy.settings.staged') },
          ]}
        />
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <FormTextField
            control={control}
            name="canary_wait_minutes"
            type="number"
            label={t('deploy.settings.wait')}
          />
          <FormTextField
            control={control}
            name="canary_alert_factor"
            type="number"
            label={t('deploy.settings.factor')}
          />
          <FormTextField
            control={control}
            name="canary_heartbeat_grace_seconds"
            type="number"
            label={t('deploy.settings.grace')}
          />
        </Stack>
        <Button type="submit" variant="contained" sx={{ mt: 1 }} loading={formState.isSubmitting}>
          {t('common.save')}
        </Button>
      </form>
    </Paper>
  );
}

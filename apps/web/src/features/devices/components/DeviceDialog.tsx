import { useState } from 'react';
import { useForm, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import { DeviceWrite, type Device } from '@palisade/contract';
import { FormIdSelect } from '../../../components/form/FormIdSelect';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FormTextField } from '../../../components/form/FormTextField';
import { LockoutDialog, lockoutMessage } from '../../../components/lockout/LockoutDialog';
import { notifyApiError } from '../../../components/notifications/notify';
import { useChangeReview } from '../../../components/change-review/useChangeReview';
import { withProgress } from '../../../components/notifications/queue';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { previewDevice } from '../api/preview-device';
import { useSaveDevice } from '../api/save-device';
import { generateDevicePassword } from './device-status';
import type { DeviceTools } from './tools';
import { HistoryLink } from '../../../components/page/HistoryLink';

/** Create and edit share one form; on edit an empty password leaves it unchanged. */
const DeviceFormSchema = DeviceWrite.extend({
  password: z.union([z.literal(''), DeviceWrite.shape.password]),
});
type DeviceFormInput = z.input<typeof DeviceFormSchema>;
type DeviceFormValues = z.output<typeof DeviceFormSchema>;
const NewDeviceSchema = DeviceFormSchema.extend({ password: DeviceWrite.shape.password });

interface DeviceDialogProps {
  /** null: a new device. */
  device: Device | null;
  tools: DeviceTools;
  onClose: () => void;
  /** After a save that set a password: the device and the password, to show once. */
  onSecret: (device: Device, password: string) => void;
}

export function DeviceDialog({ device, tools, onClose, onSecret }: DeviceDialogProps) {
  const { t } = useTranslation();
  const save = useSaveDevice();
  const review = useChangeReview();
  const { control, handleSubmit, formState, setValue } = useForm<
    DeviceFormInput,
    unknown,
    DeviceFormValues
  >({
    resolver: zodResolver(device === null ? NewDeviceSchema : DeviceFormSchema),
    defaultValues: {
      name: device?.name ?? '',
      description: device?.description ?? '',
      address: device?.address ?? '',
      city: device?.city ?? '',
      licensed: device?.licensed ?? false,
      password: device === null ? generateDevicePassword() : '',
      profile_id: device?.profile_id ?? null,
      policy_id: device?.policy_id ?? null,
      firewall_id: device?.firewall_id ?? null,
    },
  });

  const [refused, setRefused] = useState<{ values: DeviceFormValues; message: string } | null>(
    null,
  );
  const guard = useUnsavedChangesGuard(formState.isDirty);
  const cancel = () => guard.askBefore(onClose);

  /** `overrideLockout`: sent again after the lock-out check refused it, reviewed already. */
  const submit = async (values: DeviceFormValues, overrideLockout = false) => {
    const { password, ...rest } = values;
    try {
      let saved: Device | null;
      if (device === null) {
        saved = await withProgress(
          { progress: 'devices.notices.creating', success: 'devices.notices.created' },
          () => save.mutateAsync({ body: { ...rest, password } }),
        );
      } else {
        const body = password === '' ? rest : { ...rest, password };
        const labels = { progress: 'devices.notices.updating', success: 'devices.notices.updated' };
        const { id } = device;
        // A new profile, policy or ruleset reaches the device: reviewed first.
        const reaches =
          rest.profile_id !== device.profile_id ||
          rest.policy_id !== device.policy_id ||
          rest.firewall_id !== device.firewall_id;
        saved = overrideLockout
          ? await withProgress(labels, () =>
              save.mutateAsync({ id, body: { ...body, override_lockout: true } }),
            )
          : reaches
            ? await review.reviewThenSave({
                preview: () => previewDevice(id, rest),
                save: () => save.mutateAsync({ id, body }),
                labels,
              })
            : await withProgress(labels, () => save.mutateAsync({ id, body }));
        if (saved === null) return;
      }
      onClose();
      if (password !== '') onSecret(saved, password);
    } catch (failure) {
      const lockout = lockoutMessage(failure);
      if (lockout !== null) {
        setRefused({ values, message: lockout });
        return;
      }
      notifyApiError(failure, { conflict: 'devices.notices.nameTaken' });
    }
  };

  const regenerate = (
    <InputAdornment position="end">
      <IconButton
        aria-label={t('devices.form.generatePassword')}
        onClick={() => setValue('password', generateDevicePassword(), { shouldDirty: true })}
        edge="end"
      >
        <AutorenewIcon />
      </IconButton>
    </InputAdornment>
  );
  return (
    <Dialog open onClose={cancel} fullWidth maxWidth="sm" aria-labelledby="device-dialog-title">
      <form noValidate onSubmit={(event) => void handleSubmit((values) => submit(values))(event)}>
        <DialogTitle id="device-dialog-title">
          {device === null ? t('devices.create') : t('devices.editTitle', { name: device.name })}
        </DialogTitle>
        <DialogContent dividers>
          <FormTextField control={control} name="name" label={t('devices.fields.name')} autoFocus />
          <FormTextField
            control={control}
            name="description"
            label={t('devices.fields.description')}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 2 }}>
            <FormTextField control={control} name="address" label={t('devices.fields.address')} />
            <FormTextField control={control} name="city" label={t('devices.fields.city')} />
          </Stack>
          <DeviceToolSelects control={control} tools={tools} />
          <FormTextField
            control={control}
            name="password"
            label={device === null ? t('devices.fields.password') : t('devices.fields.newPassword')}
            autoComplete="off"
            helperText={
              device === null ? t('devices.form.passwordHelp') : t('devices.form.passwordUnchanged')
            }
            slotProps={{
              input: { endAdornment: regenerate },
              htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } },
            }}
          />
          <FormSwitch control={control} name="licensed" label={t('devices.fields.licensed')} />
        </DialogContent>
        <DialogActions>
          <HistoryLink type={'device'} id={device?.id} />
          <Button onClick={cancel}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            {device === null ? t('devices.createSubmit') : t('common.save')}
          </Button>
        </DialogActions>
      </form>
      {review.dialog}
      {refused !== null && (
        <LockoutDialog
          message={refused.message}
          canOverride={tools.canOverrideLockout}
          onClose={() => setRefused(null)}
          onOverride={() => {
            setRefused(null);
            void submit(refused.values, true);
          }}
        />
      )}
    </Dialog>
  );
}

/** What the device runs: its profile, policy and firewall ruleset, each may be none. */
function DeviceToolSelects({
  control,
  tools,
}: {
  control: Control<DeviceFormInput, unknown, DeviceFormValues>;
  tools: DeviceTools;
}) {
  const { t } = useTranslation();
  return (
    <>
      <FormIdSelect
        control={control}
        name="profile_id"
        label={t('devices.fields.profile')}
        options={tools.profiles}
        noneLabel={t('devices.none')}
      />
      <FormIdSelect
        control={control}
        name="policy_id"
        label={t('devices.fields.policy')}
        options={tools.policies}
        noneLabel={t('devices.none')}
      />
      <FormIdSelect
        control={control}
        name="firewall_id"
        label={t('devices.fields.firewall')}
        options={tools.firewalls}
        noneLabel={t('devices.none')}
      />
    </>
  );
}

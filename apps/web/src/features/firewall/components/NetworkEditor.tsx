import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DeviceNetwork, type DeviceNetworkInput } from '@palisade/contract';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { useLockoutRefusal } from '../../../components/lockout/useLockoutRefusal';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { useChangeReview } from '../../../components/change-review/useChangeReview';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { ApiError } from '../../../lib/api-client';
import { previewDeviceNetwork } from '../api/preview-device-network';
import { useSaveDeviceNetwork } from '../api/save-device-network';
import { PortForwardsSection, SourceNatSection } from './NatSection';
import { RoutesSection } from './RoutesSection';

interface NetworkEditorProps {
  deviceId: number;
  network: DeviceNetwork;
  readOnly: boolean;
  /** Administrators may save routes that the lock-out check refused. */
  canOverrideLockout?: boolean;
}

const FORM_PATH = /^(routes|source_nat|port_forwards)\.\d+\.\w+$/;

/** L3 mode, routes and NAT of one device, saved together. */
export function NetworkEditor({
  deviceId,
  network,
  readOnly,
  canOverrideLockout = false,
}: NetworkEditorProps) {
  const { t } = useTranslation();
  const save = useSaveDeviceNetwork(deviceId);
  const review = useChangeReview();
  const { control, handleSubmit, formState, setError, reset } = useForm<
    DeviceNetworkInput,
    unknown,
    DeviceNetwork
  >({ resolver: zodResolver(DeviceNetwork), defaultValues: network });
  const l3 = useWatch({ control, name: 'l3_mode' }) === true;
  // Another tab, another device or another page would drop what was typed here: ask first.
  useUnsavedChangesGuard(formState.isDirty && !readOnly, t('firewall.network.unsavedBody'));

  // Routes that would move the path to the server: refused, with the server's reason.
  const lockout = useLockoutRefusal<DeviceNetwork>(canOverrideLockout);
  const labels = { progress: 'firewall.network.saving', success: 'firewall.network.saved' };

  const submit = async (values: DeviceNetwork, override = false) => {
    try {
      // What the device would receive is reviewed first (the override comes after the review
      // and the refusal were seen); Cancel keeps the routes as typed.
      const saved = override
        ? await withProgress(labels, () => save.mutateAsync({ ...values, override_lockout: true }))
        : await review.reviewThenSave({
            preview: () => previewDeviceNetwork(deviceId, values),
            save: () => save.mutateAsync(values),
            labels,
          });
      if (saved === null) return;
      // What was saved is now what is loaded: the form is clean until the next edit.
      reset(saved);
    } catch (failure) {
      if (lockout.refusedBy(failure, values)) return;
      // 422 names the bad route, NAT or forward: mark it where it is shown.
      if (failure instanceof ApiError && failure.status === 422) {
        for (const { field, msg } of failure.details) {
          if (FORM_PATH.test(field))
            setError(field as `routes.${number}.address`, { type: 'server', message: msg });
        }
      }
      notifyApiError(failure);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void handleSubmit((values) => submit(values))(event)}>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <FormSwitch control={control} name="l3_mode" label={t('firewall.network.l3Mode')} />
        <Typography variant="body2" color="text.secondary">
          {t('firewall.network.l3Help')}
        </Typography>
      </Paper>
      {!l3 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('firewall.network.l3Off')}
        </Alert>
      )}
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('firewall.routes.title')}
      </Typography>
      <RoutesSection control={control} readOnly={readOnly} />
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
        {t('firewall.nat.sourceNatTitle')}
      </Typography>
      <SourceNatSection control={control} readOnly={readOnly} />
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
        {t('firewall.nat.forwardsTitle')}
      </Typography>
      <PortForwardsSection control={control} readOnly={readOnly} />
      {!readOnly && (
        <Stack direction="row" sx={{ mt: 3 }}>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            {t('firewall.network.save')}
          </Button>
        </Stack>
      )}
      {review.dialog}
      {lockout.dialog((values) => void submit(values, true))}
    </form>
  );
}

import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { Route } from '@palisade/contract';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/FormTextField';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { NumberField } from './NumberField';

type RouteValues = z.output<typeof Route>;

interface RouteDialogProps {
  /** null: a new route. */
  route: RouteValues | null;
  onSave: (route: RouteValues) => void;
  onClose: () => void;
}

/** Add or edit one L3 route: destination, gateway, metric, interface. */
export function RouteDialog({ route, onSave, onClose }: RouteDialogProps) {
  const { t } = useTranslation();
  const { control, handleSubmit, formState } = useForm<z.input<typeof Route>, unknown, RouteValues>(
    {
      resolver: zodResolver(Route),
      defaultValues: route ?? { address: '', gateway: '', metric: null, interface: '' },
    },
  );
  const guard = useUnsavedChangesGuard(formState.isDirty);
  const cancel = () => guard.askBefore(onClose);
  const ltr = { htmlInput: { spellCheck: false, dir: 'ltr' } };
  return (
    <Dialog open onClose={cancel} fullWidth maxWidth="sm" aria-labelledby="route-dialog-title">
      <form
        noValidate
        onSubmit={(event) => {
          event.stopPropagation();
          void handleSubmit(onSave)(event);
        }}
      >
        <DialogTitle id="route-dialog-title">
          {route === null ? t('firewall.routes.addTitle') : t('firewall.routes.editTitle')}
        </DialogTitle>
        <DialogContent dividers>
          <FormTextField
            control={control}
            name="address"
            label={t('firewall.routes.address')}
            helperText={t('firewall.routes.addressHelp')}
            autoFocus
            slotProps={ltr}
          />
          <FormTextField
            control={control}
            name="gateway"
            label={t('firewall.routes.gateway')}
            slotProps={ltr}
          />
          <Stack direction="row" spacing={2}>
            <NumberField control={control} name="metric" label={t('firewall.routes.metric')} />
            <FormTextField
              control={control}
              name="interface"
              label={t('firewall.routes.interface')}
              slotProps={ltr}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={cancel}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained">
            {route === null ? t('firewall.routes.add') : t('firewall.routes.update')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

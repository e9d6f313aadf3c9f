import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { AlertViewWrite, type AlertView, type AlertViewFilters } from '@palisade/contract';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifyApiError, notifySuccess } from '../../../components/notifications/notify';
import { useSaveAlertView } from '../api/save-alert-view';

const ViewForm = AlertViewWrite.pick({ name: true, shared: true });

interface SaveViewDialogProps {
  /** The current filters, saved as a new view; or the own view to rename or (un)share. */
  target: { filters: AlertViewFilters } | { view: AlertView };
  /** Operators and Administrators may share a view with the organization. */
  canShare: boolean;
  onClose: () => void;
}

/** "Save view…" (name, shared) for the current filters, and the rename of one's own view. */
export function SaveViewDialog({ target, canShare, onClose }: SaveViewDialogProps) {
  const { t } = useTranslation();
  const save = useSaveAlertView();
  const editing = 'view' in target ? target.view : null;
  const { control, handleSubmit, formState } = useForm({
    resolver: zodResolver(ViewForm),
    defaultValues: { name: editing?.name ?? '', shared: editing?.shared ?? false },
  });

  const onSubmit = handleSubmit(async ({ name, shared }) => {
    try {
      if ('view' in target) {
        await save.mutateAsync({
          id: target.view.id,
          body: canShare ? { name, shared } : { name },
        });
        notifySuccess('alerts.savedViews.renamed');
      } else {
        await save.mutateAsync({
          body: { name, filters: target.filters, shared: canShare && shared },
        });
        notifySuccess('alerts.savedViews.saved');
      }
      onClose();
    } catch (failure) {
      notifyApiError(failure, { conflict: 'alerts.savedViews.nameTaken' });
    }
  });

  const title = editing ? t('alerts.savedViews.editTitle') : t('alerts.savedViews.saveTitle');
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="save-view-title">
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <DialogTitle id="save-view-title">{title}</DialogTitle>
        <DialogContent>
          {!editing && (
            <Typography variant="body2" color="text.secondary">
              {t('alerts.savedViews.saveHelp')}
            </Typography>
          )}
          <FormTextField
            control={control}
            name="name"
            label={t('alerts.savedViews.name')}
            fullWidth
            margin="normal"
            autoFocus
          />
          {canShare && (
            <FormSwitch control={control} name="shared" label={t('alerts.savedViews.shared')} />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import type { AlertView } from '@palisade/contract';
import { notifyApiError, notifySuccess } from '../../../components/notifications/notify';
import { ConfirmDialog } from '../../../components/page/ConfirmDialog';
import { useDeleteAlertView } from '../api/delete-alert-view';
import { SaveViewDialog } from './SaveViewDialog';

/** One's own saved views, each with rename (and sharing) and delete. */
export function ManageViewsDialog(props: {
  views: AlertView[];
  canShare: boolean;
  onClose: () => void;
}) {
  const { views, canShare, onClose } = props;
  const { t } = useTranslation();
  const remove = useDeleteAlertView();
  const [editing, setEditing] = useState<AlertView | null>(null);
  const [deleting, setDeleting] = useState<AlertView | null>(null);

  const confirmDelete = async (view: AlertView) => {
    setDeleting(null);
    try {
      await remove.mutateAsync(view.id);
      notifySuccess('alerts.savedViews.deleted');
    } catch (failure) {
      notifyApiError(failure);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="manage-views-title">
      <DialogTitle id="manage-views-title">{t('alerts.savedViews.manageTitle')}</DialogTitle>
      <DialogContent>
        {views.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('alerts.savedViews.none')}
          </Typography>
        ) : (
          <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
            {views.map((view) => (
              <Box
                component="li"
                key={view.id}
                sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5 }}
              >
                <Typography sx={{ flex: 1, overflowWrap: 'anywhere' }}>{view.name}</Typography>
                {view.shared && (
                  <Chip size="small" variant="outlined" label={t('alerts.savedViews.sharedChip')} />
                )}
                <IconButton
                  aria-label={t('alerts.savedViews.rename', { name: view.name })}
                  onClick={() => setEditing(view)}
                >
                  <EditIcon />
                </IconButton>
                <IconButton
                  aria-label={t('alerts.savedViews.delete', { name: view.name })}
                  disabled={remove.isPending}
                  onClick={() => setDeleting(view)}
                >
                  <DeleteIcon />
                </IconButton>
              </Box>
            ))}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
      {editing !== null && (
        <SaveViewDialog
          target={{ view: editing }}
          canShare={canShare}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('alerts.savedViews.deleteTitle', { name: deleting?.name ?? '' })}
        body={t('alerts.savedViews.deleteBody')}
        confirmLabel={t('common.delete')}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting !== null && void confirmDelete(deleting)}
      />
    </Dialog>
  );
}

import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { RuleGroupCreate, type RuleGroup } from '@palisade/contract';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { useChangeReview } from '../../../components/change-review/useChangeReview';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { ApiError } from '../../../lib/api-client';
import { previewGroup } from '../api/preview-group';
import { useSaveGroup } from '../api/save-group';

const GroupForm = RuleGroupCreate.pick({ name: true, description: true });
type GroupValues = z.output<typeof GroupForm>;

interface GroupDialogProps {
  open: boolean;
  /** The group to rename; absent to create one. */
  group?: RuleGroup;
  onClose: () => void;
}

/** Create a rule group, or rename one and change its description. */
export function GroupDialog({ open, ...props }: GroupDialogProps) {
  // Mounted only while open, so each opening starts from the group as it is.
  return open ? <GroupFormBody {...props} /> : null;
}

function GroupFormBody({ group, onClose }: Omit<GroupDialogProps, 'open'>) {
  const { t } = useTranslation();
  const save = useSaveGroup();
  const review = useChangeReview();
  const { control, handleSubmit, setError, formState } = useForm<
    z.input<typeof GroupForm>,
    unknown,
    GroupValues
  >({
    resolver: zodResolver(GroupForm),
    defaultValues: { name: group?.name ?? '', description: group?.description ?? '' },
  });
  const guard = useUnsavedChangesGuard(formState.isDirty);
  const cancel = () => guard.askBefore(onClose);

  const submit = async (values: GroupValues) => {
    try {
      if (group === undefined) {
        await withProgress(
          { progress: 'groups.notices.creating', success: 'groups.notices.created' },
          () => save.mutateAsync({ body: values }),
        );
      } else {
        // The policies taking the group render it: what their devices receive is reviewed.
        const { id } = group;
        const saved = await review.reviewThenSave({
          preview: () => previewGroup(id, values),
          save: () => save.mutateAsync({ id, body: values }),
          labels: { progress: 'groups.notices.updating', success: 'groups.notices.updated' },
        });
        if (saved === null) return;
      }
      guard.release();
      onClose();
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) {
        setError('name', { message: t('groups.nameTaken') });
      } else {
        notifyApiError(failure);
      }
    }
  };

  return (
    <Dialog open onClose={cancel} maxWidth="sm" fullWidth>
      <DialogTitle>{group === undefined ? t('groups.create') : t('groups.rename')}</DialogTitle>
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogContent>
          {/* A file group is found by its name when its rules file is imported again. */}
          <FormTextField
            control={control}
            name="name"
            label={t('groups.name')}
            autoFocus={group?.kind !== 'file'}
            slotProps={{ input: { readOnly: group?.kind === 'file' } }}
            helperText={group?.kind === 'file' ? t('groups.fileNameFixed') : undefined}
          />
          <FormTextField
            control={control}
            name="description"
            label={t('groups.description')}
            multiline
            minRows={2}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={cancel}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
      {review.dialog}
    </Dialog>
  );
}

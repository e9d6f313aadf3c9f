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
import { ApiError } from '../../../lib/api-client';
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
export function GroupDialog({ open, group, onClose }: GroupDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{group === undefined ? t('groups.create') : t('groups.rename')}</DialogTitle>
      {open && <GroupFormBody group={group} onClose={onClose} />}
    </Dialog>
  );
}

function GroupFormBody({ group, onClose }: Omit<GroupDialogProps, 'open'>) {
  const { t } = useTranslation();
  const save = useSaveGroup();
  const { control, handleSubmit, setError, formState } = useForm<
    z.input<typeof GroupForm>,
    unknown,
    GroupValues
  >({
    resolver: zodResolver(GroupForm),
    defaultValues: { name: group?.name ?? '', description: group?.description ?? '' },
  });

  const submit = async (values: GroupValues) => {
    try {
      if (group === undefined) {
        await withProgress(
          { progress: 'groups.notices.creating', success: 'groups.notices.created' },
          () => save.mutateAsync({ body: values }),
        );
      } else {
        await withProgress(
          { progress: 'groups.notices.updating', success: 'groups.notices.updated' },
          () => save.mutateAsync({ id: group.id, body: values }),
        );
      }
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
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="submit" variant="contained" loading={formState.isSubmitting}>
          {t('common.save')}
        </Button>
      </DialogActions>
    </form>
  );
}

import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { DeviceProfile } from '@palisade/contract';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { fieldErrors } from '../../../lib/field-errors';
import { useSaveProfile } from '../api/save-profile';
import {
  ProfileFormSchema,
  toBody,
  toFormValues,
  type ProfileFormInput,
  type ProfileFormValues,
} from './profile-form';
import { VariablesEditor } from './VariablesEditor';

interface ProfileDialogProps {
  /** null: a new profile. */
  profile: DeviceProfile | null;
  readOnly: boolean;
  onClose: () => void;
}

/** Create or edit a profile: name, description and its variables as key/value rows. */
export function ProfileDialog({ profile, readOnly, onClose }: ProfileDialogProps) {
  const { t } = useTranslation();
  const save = useSaveProfile();
  const [serverErrors, setServerErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const { control, handleSubmit, formState } = useForm<
    ProfileFormInput,
    unknown,
    ProfileFormValues
  >({ resolver: zodResolver(ProfileFormSchema), defaultValues: toFormValues(profile) });
  const guard = useUnsavedChangesGuard(formState.isDirty && !readOnly);
  const cancel = () => guard.askBefore(onClose);

  const submit = async (values: ProfileFormValues) => {
    setServerErrors(new Map());
    const labels =
      profile === null
        ? { progress: 'profiles.notices.creating', success: 'profiles.notices.created' }
        : { progress: 'profiles.notices.updating', success: 'profiles.notices.updated' };
    try {
      await withProgress(labels, () =>
        save.mutateAsync({ id: profile?.id ?? null, body: toBody(values) }),
      );
      onClose();
    } catch (failure) {
      setServerErrors(fieldErrors(failure, 'variables'));
      notifyApiError(failure, { conflict: 'profiles.notices.nameTaken' });
    }
  };

  const title =
    profile === null
      ? t('profiles.create')
      : readOnly
        ? profile.name
        : t('profiles.editTitle', { name: profile.name });
  return (
    <Dialog open onClose={cancel} fullWidth maxWidth="md" aria-labelledby="profile-dialog-title">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id="profile-dialog-title">{title}</DialogTitle>
        <DialogContent dividers>
          <FormTextField
            control={control}
            name="name"
            label={t('profiles.fields.name')}
            disabled={readOnly}
            autoFocus={!readOnly}
          />
          <FormTextField
            control={control}
            name="description"
            label={t('profiles.fields.description')}
            disabled={readOnly}
          />
          <VariablesEditor control={control} serverErrors={serverErrors} readOnly={readOnly} />
        </DialogContent>
        <DialogActions>
          <Button onClick={cancel}>{readOnly ? t('common.close') : t('common.cancel')}</Button>
          {!readOnly && (
            <Button type="submit" variant="contained" loading={formState.isSubmitting}>
              {profile === null ? t('profiles.createSubmit') : t('common.save')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}

import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import HistoryIcon from '@mui/icons-material/History';
import type { DeviceProfile } from '@palisade/contract';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifyApiError } from '../../../components/notifications/notify';
import { useChangeReview } from '../../../components/change-review/useChangeReview';
import { withProgress } from '../../../components/notifications/queue';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { VersionHistoryDialog } from '../../../components/version-history/VersionHistoryDialog';
import { useLockoutRefusal } from '../../../components/lockout/useLockoutRefusal';
import { fieldErrors } from '../../../lib/field-errors';
import { previewProfile } from '../api/preview-profile';
import { profilesListKey } from '../api/list-profiles';
import { useSaveProfile } from '../api/save-profile';
import {
  ProfileFormSchema,
  toBody,
  toFormValues,
  type ProfileFormInput,
  type ProfileFormValues,
} from './profile-form';
import { VariablesEditor } from './VariablesEditor';
import { HistoryLink } from '../../../components/page/HistoryLink';

interface ProfileDialogProps {
  /** null: a new profile. */
  profile: DeviceProfile | null;
  readOnly: boolean;
  /** A profile's variables reach device firewalls: an Administrator may override a lock-out. */
  canOverrideLockout?: boolean;
  onClose: () => void;
}

/** Create or edit a profile: name, description and its variables as key/value rows. */
export function ProfileDialog({
  profile,
  readOnly,
  canOverrideLockout = false,
  onClose,
}: ProfileDialogProps) {
  const { t } = useTranslation();
  const save = useSaveProfile();
  const review = useChangeReview();
  const [serverErrors, setServerErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const [history, setHistory] = useState(false);
  const lockout = useLockoutRefusal<ProfileFormValues>(canOverrideLockout);
  const { control, handleSubmit, formState } = useForm<
    ProfileFormInput,
    unknown,
    ProfileFormValues
  >({ resolver: zodResolver(ProfileFormSchema), defaultValues: toFormValues(profile) });
  const guard = useUnsavedChangesGuard(formState.isDirty && !readOnly);
  const cancel = () => guard.askBefore(onClose);

  /** `overrideLockout`: sent again after a refusal, reviewed already. */
  const submit = async (values: ProfileFormValues, overrideLockout = false) => {
    setServerErrors(new Map());
    const labels =
      profile === null
        ? { progress: 'profiles.notices.creating', success: 'profiles.notices.created' }
        : { progress: 'profiles.notices.updating', success: 'profiles.notices.updated' };
    try {
      const body = toBody(values);
      if (profile === null) {
        await withProgress(labels, () => save.mutateAsync({ id: null, body }));
      } else if (overrideLockout) {
        const { id } = profile;
        await withProgress(labels, () =>
          save.mutateAsync({ id, body: { ...body, override_lockout: true } }),
        );
      } else {
        // The devices using the profile get its variables: reviewed first.
        const { id } = profile;
        const saved = await review.reviewThenSave({
          preview: () => previewProfile(id, body),
          save: () => save.mutateAsync({ id, body }),
          labels,
        });
        if (saved === null) return;
      }
      onClose();
    } catch (failure) {
      if (lockout.refusedBy(failure, values)) return;
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
      <form noValidate onSubmit={(event) => void handleSubmit((values) => submit(values))(event)}>
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
          <Box sx={{ marginInlineEnd: 'auto', display: 'flex', gap: 1 }}>
            {profile !== null && (
              <Button startIcon={<HistoryIcon />} onClick={() => setHistory(true)}>
                {t('versions.history')}
              </Button>
            )}
            <HistoryLink type={'profile'} id={profile?.id} />
          </Box>
          <Button onClick={cancel}>{readOnly ? t('common.close') : t('common.cancel')}</Button>
          {!readOnly && (
            <Button type="submit" variant="contained" loading={formState.isSubmitting}>
              {profile === null ? t('profiles.createSubmit') : t('common.save')}
            </Button>
          )}
        </DialogActions>
      </form>
      {review.dialog}
      {lockout.dialog((values) => void submit(values, true))}
      {profile !== null && (
        <VersionHistoryDialog
          open={history}
          name={profile.name}
          base={`deviceconfigurationprofiles/${profile.id}`}
          canRollBack={!readOnly}
          canOverrideLockout={canOverrideLockout}
          invalidate={[profilesListKey]}
          // What the form holds is no longer the profile: the editor closes on the restored one.
          onRolledBack={onClose}
          onClose={() => setHistory(false)}
        />
      )}
    </Dialog>
  );
}

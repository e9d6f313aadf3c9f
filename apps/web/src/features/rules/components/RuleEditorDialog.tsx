import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { RuleWrite, type RuleDetail } from '@palisade/contract';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifyApiError } from '../../../components/notifications/notify';
import { useChangeReview } from '../../../components/change-review/useChangeReview';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { ApiError } from '../../../lib/api-client';
import { previewRule } from '../api/preview-rule';
import { useSaveRule } from '../api/save-rule';

const RuleTextForm = RuleWrite.pick({ text: true });
type RuleTextValues = z.output<typeof RuleTextForm>;

interface RuleEditorDialogProps {
  open: boolean;
  /** The rule to update; absent to add a custom rule. */
  rule?: RuleDetail;
  /** Groups a new rule may join (without any it goes to the group "custom"). */
  groups?: { id: number; name: string }[];
  onClose: () => void;
}

/** Add or update a rule's text; the server's parse error is shown at the field. */
export function RuleEditorDialog({ open, ...props }: RuleEditorDialogProps) {
  // Mounted only while open, so each opening starts from the rule as it is.
  return open ? <RuleEditorForm {...props} /> : null;
}

function RuleEditorForm({ rule, groups = [], onClose }: Omit<RuleEditorDialogProps, 'open'>) {
  const { t } = useTranslation();
  const [joined, setJoined] = useState<{ id: number; name: string }[]>([]);
  const save = useSaveRule();
  const review = useChangeReview();
  const { control, handleSubmit, setError, formState } = useForm<
    z.input<typeof RuleTextForm>,
    unknown,
    RuleTextValues
  >({
    resolver: zodResolver(RuleTextForm),
    defaultValues: { text: rule?.text ?? '' },
  });
  // The groups picked for a new rule are edits too.
  const guard = useUnsavedChangesGuard(formState.isDirty || joined.length > 0);
  const cancel = () => guard.askBefore(onClose);

  const submit = async ({ text }: RuleTextValues) => {
    const labels =
      rule === undefined
        ? { progress: 'rules.notices.creating', success: 'rules.notices.created' }
        : { progress: 'rules.notices.updating', success: 'rules.notices.updated' };
    try {
      const group_ids =
        rule === undefined && joined.length > 0 ? joined.map((g) => g.id) : undefined;
      const body = { id: rule?.id, text, group_ids };
      // The devices whose policies hold the rule get it: reviewed first.
      const saved = await review.reviewThenSave({
        preview: () => previewRule(body),
        save: () => save.mutateAsync(body),
        labels,
      });
      if (saved === null) return;
      guard.release();
      onClose();
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 422) {
        setError('text', { message: failure.serverMsg ?? t('errors.unknownBackend') });
      } else if (failure instanceof ApiError && failure.status === 409) {
        setError('text', { message: t('rules.duplicateSid') });
      } else {
        notifyApiError(failure);
      }
    }
  };

  return (
    <Dialog open onClose={cancel} maxWidth="md" fullWidth>
      <DialogTitle>{rule === undefined ? t('rules.addRule') : t('rules.updateRule')}</DialogTitle>
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogContent>
          <FormTextField
            control={control}
            name="text"
            label={t('rules.text')}
            multiline
            minRows={4}
            maxRows={16}
            autoFocus
            helperText={t('rules.textHelp')}
            slotProps={{
              htmlInput: { dir: 'ltr', spellCheck: false, style: { fontFamily: 'monospace' } },
            }}
          />
          {rule === undefined && groups.length > 0 && (
            <Autocomplete
              multiple
              options={groups}
              value={joined}
              getOptionLabel={(group) => group.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              onChange={(_event, chosen) => setJoined(chosen)}
              renderInput={(params) => (
                <TextField {...params} margin="normal" label={t('policies.groups')} />
              )}
            />
          )}
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

import { useFieldArray, useForm, useWatch, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  SECRET_CODE_PLACEHOLDER,
  type RuleSource,
  type RuleSourceCatalogueEntry,
} from '@palisade/contract';
import { FormSelect } from '../../../components/form/FormSelect';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { ApiError } from '../../../lib/api-client';
import { useSaveSource } from '../api/save-source';
import {
  SourceForm,
  createBody,
  initialValues,
  updateBody,
  type SourceFormInput,
  type SourceFormValues,
} from './source-form';

/** What the dialog edits: a stored source, a new one from a catalogue entry, or a custom one. */
export type SourceDialogTarget =
  { source: RuleSource } | { entry: RuleSourceCatalogueEntry } | { custom: true };

interface SourceDialogProps {
  target: SourceDialogTarget | null;
  onClose: () => void;
}

/** Add a rule source (custom, or from a catalogue entry whose URL may be edited) or edit one. */
export function SourceDialog({ target, onClose }: SourceDialogProps) {
  // Mounted only while open, so each opening starts from the source as it is.
  return target === null ? null : <SourceFormBody target={target} onClose={onClose} />;
}

function SourceFormBody({ target, onClose }: { target: SourceDialogTarget; onClose: () => void }) {
  const { t } = useTranslation();
  const title =
    'source' in target
      ? t('ruleSources.editName', { name: target.source.name })
      : t('ruleSources.add');
  const save = useSaveSource();
  const stored = 'source' in target ? target.source : null;
  const { control, handleSubmit, setError, formState } = useForm<
    SourceFormInput,
    unknown,
    SourceFormValues
  >({
    resolver: zodResolver(SourceForm),
    defaultValues: initialValues('custom' in target ? null : target),
  });
  const needsSecret = 'entry' in target && target.entry.requires_secret;
  // A URL, a secret or headers typed are not dropped by Cancel, Esc or leaving without asking.
  const guard = useUnsavedChangesGuard(formState.isDirty);
  const cancel = () => guard.askBefore(onClose);

  const submit = async (values: SourceFormValues) => {
    try {
      if (stored === null) {
        await withProgress(
          { progress: 'ruleSources.notices.creating', success: 'ruleSources.notices.created' },
          () => save.mutateAsync({ body: createBody(values) }),
        );
      } else {
        await withProgress(
          { progress: 'ruleSources.notices.updating', success: 'ruleSources.notices.updated' },
          () => save.mutateAsync({ id: stored.id, body: updateBody(values) }),
        );
      }
      guard.release();
      onClose();
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) {
        setError('name', { message: t('ruleSources.nameTaken') });
      } else {
        notifyApiError(failure);
      }
    }
  };

  return (
    <Dialog open onClose={cancel} maxWidth="sm" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogContent>
          <FormTextField control={control} name="name" label={t('ruleSources.name')} autoFocus />
          <FormTextField
            control={control}
            name="url"
            label={t('ruleSources.url')}
            helperText={t('ruleSources.urlHelp')}
            slotProps={{ htmlInput: { dir: 'ltr' } }}
          />
          <FormTextField
            control={control}
            name="checksum_url"
            label={t('ruleSources.checksumUrl')}
            helperText={t('ruleSources.checksumUrlHelp')}
            slotProps={{ htmlInput: { dir: 'ltr' } }}
          />
          <FormTextField
            control={control}
            name="secret_code"
            label={t('ruleSources.secretCode')}
            type="password"
            autoComplete="new-password"
            required={needsSecret}
            helperText={
              stored?.has_secret === true
                ? t('ruleSources.secretStored')
                : t('ruleSources.secretHelp', { placeholder: SECRET_CODE_PLACEHOLDER })
            }
          />
          {stored?.has_secret === true && (
            <FormSwitch
              control={control}
              name="clear_secret"
              label={t('ruleSources.clearSecret')}
            />
          )}
          <HeaderFields control={control} stored={stored} />
          <ScheduleFields control={control} />
          <FormSwitch control={control} name="enabled" label={t('ruleSources.enabled')} />
        </DialogContent>
        <DialogActions>
          <Button onClick={cancel}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

type SourceControl = Control<SourceFormInput, unknown, SourceFormValues>;

/** Request headers: new ones typed here; stored ones only named, and clearable. */
function HeaderFields({ control, stored }: { control: SourceControl; stored: RuleSource | null }) {
  const { t } = useTranslation();
  const headers = useFieldArray({ control, name: 'headers' });
  return (
    <>
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        {t('ruleSources.headers')}
      </Typography>
      {stored !== null && stored.header_names.length > 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('ruleSources.headersStored', { names: stored.header_names.join(', ') })}
        </Typography>
      )}
      {headers.fields.map((field, index) => (
        <Box key={field.id} sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <FormTextField
            control={control}
            name={`headers.${index}.name`}
            label={t('ruleSources.headerName')}
          />
          <FormTextField
            control={control}
            name={`headers.${index}.value`}
            label={t('ruleSources.headerValue')}
            type="password"
            autoComplete="new-password"
          />
          <IconButton
            aria-label={t('ruleSources.removeHeader')}
            onClick={() => headers.remove(index)}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Box>
      ))}
      <Button
        size="small"
        startIcon={<AddIcon />}
        onClick={() => headers.append({ name: '', value: '' })}
      >
        {t('ruleSources.addHeader')}
      </Button>
      {stored !== null && stored.header_names.length > 0 && (
        <FormSwitch control={control} name="clear_headers" label={t('ruleSources.clearHeaders')} />
      )}
    </>
  );
}

/** When the source is fetched: by hand, every so many hours, or daily at a time. */
function ScheduleFields({ control }: { control: SourceControl }) {
  const { t } = useTranslation();
  const scheduleKind = useWatch({ control, name: 'schedule_kind' });
  return (
    <>
      <FormSelect
        control={control}
        name="schedule_kind"
        label={t('ruleSources.schedule')}
        options={[
          { value: 'manual', label: t('ruleSources.scheduleKind.manual') },
          { value: 'interval', label: t('ruleSources.scheduleKind.interval') },
          { value: 'daily', label: t('ruleSources.scheduleKind.daily') },
        ]}
      />
      {scheduleKind === 'interval' && (
        <FormTextField
          control={control}
          name="hours"
          type="number"
          label={t('ruleSources.everyHours')}
          slotProps={{ htmlInput: { min: 1, max: 720 } }}
        />
      )}
      {scheduleKind === 'daily' && (
        <FormTextField
          control={control}
          name="time"
          label={t('ruleSources.dailyAt')}
          placeholder="03:00"
          slotProps={{ htmlInput: { dir: 'ltr' } }}
        />
      )}
    </>
  );
}

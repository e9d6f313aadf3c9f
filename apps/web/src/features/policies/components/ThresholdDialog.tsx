import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { Threshold, ValidationMessage } from '@palisade/contract';
import { z } from 'zod';
import { BacktestPanel } from '../../../components/backtest/BacktestPanel';
import { FormExpiryField } from '../../../components/form/FormExpiryField';
import { FormSelect } from '../../../components/form/FormSelect';
import { FormTextField } from '../../../components/form/FormTextField';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { validationKey } from '../../../lib/validation';

/** Text inputs give strings: empty means absent, digits become numbers. */
const optionalNumber = z.preprocess(
  (value) => (value === '' || value === undefined || value === null ? undefined : Number(value)),
  z.number({ message: ValidationMessage.notValid }).int(ValidationMessage.notValid).optional(),
);
const optionalText = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z.string().optional(),
);

const ThresholdInput = z
  .object({
    kind: z.string(),
    gid: optionalNumber,
    sid: optionalNumber,
    track: optionalText,
    type: optionalText,
    count: optionalNumber,
    seconds: optionalNumber,
    ip: optionalText,
    new_action: optionalText,
    timeout: optionalNumber,
    comment: optionalText,
    /** An ISO instant from the expiry field, or null / '' for none. */
    expires_at: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.string().nullable().optional(),
    ),
    reason: optionalText,
  })
  .pipe(Threshold);

type ThresholdForm = Record<keyof z.input<typeof ThresholdInput>, string>;

/** Validates the text inputs with the contract's Threshold; errors go to their fields. */
const resolver: Resolver<ThresholdForm> = (values) => {
  const parsed = ThresholdInput.safeParse(values);
  if (parsed.success) return { values, errors: {} };
  const errors: FieldErrors<ThresholdForm> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field !== 'string' || !(field in values)) continue;
    const key = field as keyof ThresholdForm;
    // Only the spec's texts are translated: zod's own ("Invalid input: expected number…")
    // become Required for an empty field, Not valid otherwise.
    const message =
      validationKey(issue.message) !== undefined
        ? issue.message
        : (values[key] ?? '').trim() === ''
          ? ValidationMessage.required
          : ValidationMessage.notValid;
    errors[key] ??= { type: issue.code, message };
  }
  return { values: {}, errors };
};

const toForm = (value: Threshold | undefined): ThresholdForm => ({
  kind: value?.kind ?? 'suppress',
  gid: String(value?.gid ?? 1),
  sid: value?.sid === undefined ? '' : String(value.sid),
  track: value?.track ?? '',
  type: value?.type ?? '',
  count: value?.count === undefined ? '' : String(value.count),
  seconds: value?.seconds === undefined ? '' : String(value.seconds),
  ip: value?.ip ?? '',
  new_action: value?.new_action ?? '',
  timeout: value?.timeout === undefined ? '' : String(value.timeout),
  comment: value?.comment ?? '',
  expires_at: value?.expires_at ?? '',
  reason: value?.reason ?? '',
});

interface ThresholdDialogProps {
  open: boolean;
  value?: Threshold;
  /** The saved policy: a complete entry is backtested on its devices' stored alerts. */
  policyId?: number | undefined;
  onSave: (threshold: Threshold) => void;
  onClose: () => void;
}

/** One threshold.config entry: threshold, event_filter, suppress or rate_filter. */
export function ThresholdDialog({ open, ...props }: ThresholdDialogProps) {
  return open ? <ThresholdEditor {...props} /> : null;
}

function ThresholdEditor({ value, policyId, onSave, onClose }: Omit<ThresholdDialogProps, 'open'>) {
  const { t } = useTranslation();
  const { control, handleSubmit, formState } = useForm<ThresholdForm>({
    resolver,
    defaultValues: toForm(value),
  });
  const guard = useUnsavedChangesGuard(formState.isDirty);
  const cancel = () => guard.askBefore(onClose);
  const kind = useWatch({ control, name: 'kind' });
  // A complete, valid entry shows at once what it would have removed.
  const complete = ThresholdInput.safeParse(useWatch({ control }));
  const options = (values: string[]) => [
    { value: '', label: '—' },
    ...values.map((v) => ({ value: v, label: v })),
  ];
  const rated = kind === 'threshold' || kind === 'event_filter' || kind === 'rate_filter';

  return (
    <Dialog open onClose={cancel} maxWidth="sm" fullWidth>
      <DialogTitle>{t('policies.thresholds.edit')}</DialogTitle>
      <form
        noValidate
        onSubmit={(event) => {
          // The dialog is portalled out of the policy editor's form in the DOM but not in React:
          // without this the submit would bubble up and save the whole policy.
          event.stopPropagation();
          void handleSubmit((form) => {
            onSave(ThresholdInput.parse(form));
            onClose();
          })(event);
        }}
      >
        <DialogContent>
          <FormSelect
            control={control}
            name="kind"
            label={t('policies.thresholds.kind')}
            options={['suppress', 'threshold', 'event_filter', 'rate_filter'].map((v) => ({
              value: v,
              label: v,
            }))}
          />
          <Stack direction="row" spacing={2}>
            <FormTextField control={control} name="gid" label="gid" inputMode="numeric" />
            <FormTextField control={control} name="sid" label="sid" inputMode="numeric" />
          </Stack>
          <FormSelect
            control={control}
            name="track"
            label={t('policies.thresholds.track')}
            options={options(['by_src', 'by_dst', 'by_rule', 'by_both'])}
          />
          {kind === 'suppress' && (
            <FormTextField
              control={control}
              name="ip"
              label={t('policies.thresholds.ip')}
              slotProps={{ htmlInput: { dir: 'ltr' } }}
            />
          )}
          {kind !== 'suppress' && kind !== 'rate_filter' && (
            <FormSelect
              control={control}
              name="type"
              label={t('policies.thresholds.type')}
              options={options(['limit', 'threshold', 'both'])}
            />
          )}
          {rated && (
            <Stack direction="row" spacing={2}>
              <FormTextField
                control={control}
                name="count"
                label={t('policies.thresholds.count')}
                inputMode="numeric"
              />
              <FormTextField
                control={control}
                name="seconds"
                label={t('policies.thresholds.seconds')}
                inputMode="numeric"
              />
            </Stack>
          )}
          {kind === 'rate_filter' && (
            <Stack direction="row" spacing={2}>
              <FormSelect
                control={control}
                name="new_action"
                label={t('policies.thresholds.newAction')}
                options={options(['alert', 'drop', 'pass', 'reject'])}
              />
              <FormTextField
                control={control}
                name="timeout"
                label={t('policies.thresholds.timeout')}
                inputMode="numeric"
              />
            </Stack>
          )}
          <FormTextField
            control={control}
            name="comment"
            label={t('policies.thresholds.comment')}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 2 }}>
            <FormExpiryField control={control} name="expires_at" />
            <FormTextField control={control} name="reason" label={t('expiry.reason')} />
          </Stack>
          {policyId !== undefined && complete.success && (
            <BacktestPanel policyId={policyId} entries={{ thresholds: [complete.data] }} />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={cancel}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained">
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

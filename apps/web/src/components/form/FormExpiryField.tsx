import TextField from '@mui/material/TextField';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fromLocalInput, toLocalInput } from '../expiry/local-time';

/**
 * An optional end date bound to react-hook-form: the field holds an ISO instant (null when
 * cleared), the input shows it in local time.
 */
export function FormExpiryField<T extends FieldValues>({
  control,
  name,
}: {
  control: Control<T>;
  name: FieldPath<T>;
}) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  return (
    <TextField
      type="datetime-local"
      name={field.name}
      inputRef={field.ref}
      value={toLocalInput(field.value)}
      onChange={(event) => field.onChange(fromLocalInput(event.target.value))}
      onBlur={field.onBlur}
      label={t('expiry.expiresLabel')}
      helperText={fieldState.error ? t('validation.notValid') : t('expiry.expiresHelp')}
      error={fieldState.error !== undefined}
      fullWidth
      margin="normal"
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { dir: 'ltr' } }}
    />
  );
}

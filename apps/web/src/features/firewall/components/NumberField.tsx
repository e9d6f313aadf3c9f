import TextField from '@mui/material/TextField';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

interface NumberFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  disabled?: boolean;
  size?: 'small' | 'medium';
  margin?: 'none' | 'normal';
  width?: number;
}

/** A whole-number input bound to a `number | null` field (empty is null). */
export function NumberField<T extends FieldValues>({
  control,
  name,
  label,
  disabled,
  size,
  margin = 'normal',
  width,
}: NumberFieldProps<T>) {
  const { field, fieldState } = useController({ control, name });
  const value: unknown = field.value;
  return (
    <TextField
      label={label}
      name={field.name}
      inputRef={field.ref}
      value={typeof value === 'number' && Number.isFinite(value) ? String(value) : ''}
      onChange={(event) => {
        const text = event.target.value.trim();
        field.onChange(text === '' ? null : /^\d+$/.test(text) ? Number(text) : Number.NaN);
      }}
      onBlur={field.onBlur}
      error={fieldState.error !== undefined}
      helperText={fieldState.error?.message}
      disabled={disabled}
      size={size}
      margin={margin}
      fullWidth={width === undefined}
      sx={width === undefined ? undefined : { width }}
      slotProps={{ htmlInput: { inputMode: 'numeric', dir: 'ltr' } }}
    />
  );
}

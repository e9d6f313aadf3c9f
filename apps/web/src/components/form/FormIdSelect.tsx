import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

export interface IdOption {
  id: number;
  name: string;
}

interface FormIdSelectProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  options: readonly IdOption[];
  /** The label of the empty choice (the field holds null). */
  noneLabel: string;
  disabled?: boolean;
}

/** A picker of one referenced item by id; the empty choice is null. */
export function FormIdSelect<T extends FieldValues>({
  control,
  name,
  label,
  options,
  noneLabel,
  disabled,
}: FormIdSelectProps<T>) {
  const { field, fieldState } = useController({ control, name });
  const value: unknown = field.value;
  return (
    <TextField
      select
      name={field.name}
      inputRef={field.ref}
      value={typeof value === 'number' ? String(value) : ''}
      onChange={(event) =>
        field.onChange(event.target.value === '' ? null : Number(event.target.value))
      }
      onBlur={field.onBlur}
      label={label}
      error={fieldState.error !== undefined}
      helperText={fieldState.error?.message}
      disabled={disabled}
      fullWidth
      margin="normal"
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">
        <em>{noneLabel}</em>
      </MenuItem>
      {options.map((option) => (
        <MenuItem key={option.id} value={String(option.id)}>
          {option.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

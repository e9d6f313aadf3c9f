import type { ReactNode } from 'react';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { validationKey } from '../../lib/validation';

type FormTextFieldProps<T extends FieldValues> = {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  helperText?: ReactNode;
} & Omit<
  TextFieldProps,
  'name' | 'label' | 'value' | 'onChange' | 'onBlur' | 'error' | 'helperText'
>;

/** A text input bound to react-hook-form; schema messages are shown translated. */
export function FormTextField<T extends FieldValues>({
  control,
  name,
  label,
  helperText,
  ...rest
}: FormTextFieldProps<T>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const message = fieldState.error?.message;
  const key = validationKey(message);
  const errorText = key === undefined ? message : t(key as 'validation.required');
  return (
    <TextField
      {...rest}
      name={field.name}
      inputRef={field.ref}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      label={label}
      error={fieldState.error !== undefined}
      helperText={errorText ?? helperText}
      fullWidth
      margin="normal"
    />
  );
}

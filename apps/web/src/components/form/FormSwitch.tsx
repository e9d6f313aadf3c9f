import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

interface FormSwitchProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
}

export function FormSwitch<T extends FieldValues>({ control, name, label }: FormSwitchProps<T>) {
  const { field } = useController({ control, name });
  return (
    <FormControlLabel
      sx={{ mt: 1 }}
      label={label}
      control={
        <Switch
          name={field.name}
          checked={field.value === true}
          onChange={(event) => field.onChange(event.target.checked)}
          onBlur={field.onBlur}
        />
      }
    />
  );
}

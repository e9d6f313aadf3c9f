import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { IdOption } from '../../../components/form/FormIdSelect';

interface AssignSelectProps {
  label: string;
  value: number | null;
  options: readonly IdOption[];
  noneLabel: string;
  disabled: boolean;
  onChange: (id: number | null) => void;
}

/** A compact picker inside a table row. */
export function AssignSelect({
  label,
  value,
  options,
  noneLabel,
  disabled,
  onChange,
}: AssignSelectProps) {
  return (
    <TextField
      select
      size="small"
      value={value === null ? '' : String(value)}
      onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
      disabled={disabled}
      sx={{ minWidth: 180 }}
      slotProps={{
        select: { displayEmpty: true, SelectDisplayProps: { 'aria-label': label } },
      }}
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

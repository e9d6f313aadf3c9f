import { useTranslation } from 'react-i18next';
import { useFieldArray, useController, useWatch, type Control } from 'react-hook-form';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { validationKey } from '../../../lib/validation';
import { COMMON_VARIABLES, type ProfileFormInput } from './profile-form';

interface VariablesEditorProps {
  control: Control<ProfileFormInput>;
  /** The server's problems by variable name (422 `variables.<NAME>`). */
  serverErrors: ReadonlyMap<string, string>;
  readOnly: boolean;
}

/** The key/value editor of a profile: one row per variable. */
export function VariablesEditor({ control, serverErrors, readOnly }: VariablesEditorProps) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({ control, name: 'variables' });
  const rows = useWatch({ control, name: 'variables' });
  const present = new Set(rows.map((row) => row.key));
  const offered = COMMON_VARIABLES.filter((variable) => !present.has(variable.key));
  return (
    <Stack spacing={1} sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h3">
        {t('profiles.editor.variables')}
      </Typography>
      {fields.length === 0 && (
        <Typography color="text.secondary">{t('profiles.editor.noVariables')}</Typography>
      )}
      {fields.map((field, index) => (
        <VariableRow
          key={field.id}
          control={control}
          index={index}
          serverErrors={serverErrors}
          readOnly={readOnly}
          onRemove={() => remove(index)}
        />
      ))}
      {!readOnly && (
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Button startIcon={<AddIcon />} onClick={() => append({ key: '', value: '' })}>
            {t('profiles.editor.addVariable')}
          </Button>
          {offered.length > 0 && (
            <Typography variant="caption" color="text.secondary">
              {t('profiles.editor.common')}
            </Typography>
          )}
          {offered.map((variable) => (
            <Chip
              key={variable.key}
              size="small"
              variant="outlined"
              icon={<AddIcon />}
              label={variable.key}
              onClick={() => append({ ...variable })}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

interface VariableRowProps {
  control: Control<ProfileFormInput>;
  index: number;
  serverErrors: ReadonlyMap<string, string>;
  readOnly: boolean;
  onRemove: () => void;
}

function VariableRow({ control, index, serverErrors, readOnly, onRemove }: VariableRowProps) {
  const { t } = useTranslation();
  const key = useController({ control, name: `variables.${index}.key` });
  const value = useController({ control, name: `variables.${index}.value` });
  const keyError = key.fieldState.error?.message;
  const keyText =
    keyError === undefined
      ? undefined
      : keyError === 'duplicate'
        ? t('profiles.editor.duplicate')
        : t('profiles.editor.keyRule');
  const valueKey = validationKey(value.fieldState.error?.message);
  const serverText = serverErrors.get(String(key.field.value));
  const valueText =
    valueKey !== undefined ? t(valueKey as 'validation.required') : (serverText ?? undefined);
  const name = String(key.field.value) === '' ? String(index + 1) : String(key.field.value);
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{ alignItems: 'flex-start' }}
      data-testid="variable-row"
    >
      <TextField
        size="small"
        label={t('profiles.editor.key')}
        name={key.field.name}
        inputRef={key.field.ref}
        value={key.field.value}
        onChange={key.field.onChange}
        onBlur={key.field.onBlur}
        error={keyText !== undefined}
        helperText={keyText}
        disabled={readOnly}
        sx={{ width: { xs: '100%', sm: 220 }, flexShrink: 0 }}
        slotProps={{
          htmlInput: {
            spellCheck: false,
            'aria-label': t('profiles.editor.keyOf', { index: index + 1 }),
          },
        }}
      />
      <TextField
        size="small"
        label={t('profiles.editor.value')}
        name={value.field.name}
        inputRef={value.field.ref}
        value={value.field.value}
        onChange={value.field.onChange}
        onBlur={value.field.onBlur}
        error={valueText !== undefined}
        helperText={valueText}
        disabled={readOnly}
        fullWidth
        slotProps={{
          htmlInput: {
            spellCheck: false,
            'aria-label': t('profiles.editor.valueOf', { name }),
            style: { fontFamily: 'monospace' },
          },
        }}
      />
      {!readOnly && (
        <IconButton aria-label={t('profiles.editor.removeVariable', { name })} onClick={onRemove}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      )}
    </Stack>
  );
}

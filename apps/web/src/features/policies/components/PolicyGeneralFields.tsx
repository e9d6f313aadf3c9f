import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import TextField from '@mui/material/TextField';
import type { Policy } from '@palisade/contract';
import { FormTextField } from '../../../components/form/FormTextField';
import type { PolicyFormInput, PolicyFormValues } from './policy-form';
import type { PolicyTools } from './tools';

/** The policy's general section: name, description, groups and flowbit resolution. */
export function PolicyGeneralFields({
  control,
  policy,
  readOnly,
  tools,
}: {
  control: Control<PolicyFormInput, unknown, PolicyFormValues>;
  policy: Policy | undefined;
  readOnly: boolean;
  tools: PolicyTools;
}) {
  const { t } = useTranslation();
  return (
    <>
      {policy !== undefined && policy.removed_count > 0 && (
        <Alert severity="warning" sx={{ mt: 2 }}>
          {t('policies.removedRules', { n: policy.removed_count })}
        </Alert>
      )}
      <FormTextField control={control} name="name" label={t('policies.name')} disabled={readOnly} />
      <FormTextField
        control={control}
        name="description"
        label={t('policies.description')}
        multiline
        minRows={2}
        disabled={readOnly}
      />
      <Controller
        control={control}
        name="group_ids"
        render={({ field }) => (
          <Autocomplete
            multiple
            disabled={readOnly}
            loading={tools.groupsLoading}
            options={tools.groups}
            getOptionLabel={(group) => group.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            value={tools.groups.filter((g) => (field.value ?? []).includes(g.id))}
            onChange={(_event, chosen) => field.onChange(chosen.map((g) => g.id))}
            renderInput={(params) => (
              <TextField
                {...params}
                margin="normal"
                label={t('policies.groups')}
                helperText={t('policies.groupsHelp')}
              />
            )}
          />
        )}
      />
      <Controller
        control={control}
        name="resolve_flowbits"
        render={({ field }) => (
          <>
            <FormControlLabel
              sx={{ mt: 1 }}
              label={t('policies.resolveFlowbits')}
              disabled={readOnly}
              control={
                <Checkbox
                  name={field.name}
                  checked={field.value !== false}
                  onChange={(event) => field.onChange(event.target.checked)}
                  onBlur={field.onBlur}
                />
              }
            />
            <FormHelperText sx={{ mt: 0 }}>{t('policies.resolveFlowbitsHelp')}</FormHelperText>
          </>
        )}
      />
    </>
  );
}

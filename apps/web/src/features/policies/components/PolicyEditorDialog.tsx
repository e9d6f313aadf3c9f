import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import type { Policy } from '@palisade/contract';
import { FormTextField } from '../../../components/form/FormTextField';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { ApiError } from '../../../lib/api-client';
import { useSavePolicy } from '../api/save-policy';
import { AccessEditor } from './AccessEditor';
import { MatchersList } from './MatchersList';
import { OverridesEditor } from './OverridesEditor';
import {
  PolicyForm,
  policyFormValues,
  type PolicyFormInput,
  type PolicyFormValues,
} from './policy-form';
import { ThresholdsEditor } from './ThresholdsEditor';
import type { PolicyAccess, PolicyTools } from './tools';

type Section = 'general' | 'overrides' | 'thresholds' | 'access' | 'matchers';

interface PolicyEditorDialogProps {
  open: boolean;
  /** The policy to change; absent for a new one. */
  policy?: Policy;
  tools: PolicyTools;
  access: PolicyAccess;
  onClose: () => void;
}

/** New policy or edit one: groups, per-rule overrides, thresholds, restrict access. */
export function PolicyEditorDialog(props: PolicyEditorDialogProps) {
  const { t } = useTranslation();
  const { open, policy, access, onClose } = props;
  const readOnly = isReadOnly(policy, access);
  return (
    <Dialog
      open={open}
      // A stray click beside the editor, or Esc meant for one of its fields (closing the groups
      // list), must not throw away its changes: Cancel does. A read-only view closes either way.
      onClose={() => readOnly && onClose()}
      maxWidth="lg"
      fullWidth
    >
      <DialogTitle>
        {policy === undefined
          ? t('policies.create')
          : readOnly
            ? t('policies.viewName', { name: policy.name })
            : t('policies.editName', { name: policy.name })}
      </DialogTitle>
      {open && <PolicyEditor {...props} />}
    </Dialog>
  );
}

const isReadOnly = (policy: Policy | undefined, access: PolicyAccess) =>
  policy === undefined ? !access.canWrite : !policy.can_edit;

function PolicyEditor({ policy, tools, access, onClose }: PolicyEditorDialogProps) {
  const { t } = useTranslation();
  const [section, setSection] = useState<Section>('general');
  const save = useSavePolicy();
  const readOnly = isReadOnly(policy, access);
  const { control, handleSubmit, setValue, setError, formState } = useForm<
    PolicyFormInput,
    unknown,
    PolicyFormValues
  >({ resolver: zodResolver(PolicyForm), defaultValues: policyFormValues(policy) });
  const values = useWatch({ control }) as PolicyFormValues;
  const chosenGroups = tools.groups.filter((g) => values.group_ids.includes(g.id));
  const set = <K extends keyof PolicyFormValues>(key: K, value: PolicyFormValues[K]) =>
    setValue(key, value as never, { shouldDirty: true });

  const submit = async (form: PolicyFormValues) => {
    // Only Administrators choose editors; others leave restriction as it is.
    const body = access.isAdmin ? form : { ...form, restricted: undefined, editors: undefined };
    try {
      if (policy === undefined) {
        await withProgress(
          { progress: 'policies.notices.creating', success: 'policies.notices.created' },
          () => save.mutateAsync({ body: { ...body } }),
        );
      } else {
        await withProgress(
          { progress: 'policies.notices.updating', success: 'policies.notices.updated' },
          () => save.mutateAsync({ id: policy.id, body }),
        );
      }
      onClose();
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) {
        setSection('general');
        setError('name', { message: t('policies.nameTaken') });
      } else {
        notifyApiError(failure);
      }
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(submit, () => setSection('general'))(event)}
    >
      <Tabs
        value={section}
        onChange={(_event, next: Section) => setSection(next)}
        variant="scrollable"
        sx={{ px: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="general" label={t('policies.sections.general')} />
        <Tab
          value="overrides"
          label={t('policies.sections.overrides', { n: values.overrides.length })}
        />
        <Tab
          value="thresholds"
          label={t('policies.sections.thresholds', { n: values.thresholds.length })}
        />
        <Tab value="access" label={t('policies.sections.access')} />
        {values.matchers.length > 0 && (
          <Tab
            value="matchers"
            label={t('policies.sections.matchers', { n: values.matchers.length })}
          />
        )}
      </Tabs>
      <DialogContent sx={{ minHeight: 420 }}>
        <Box hidden={section !== 'general'}>
          {policy !== undefined && policy.removed_count > 0 && (
            <Alert severity="warning" sx={{ mt: 2 }}>
              {t('policies.removedRules', { n: policy.removed_count })}
            </Alert>
          )}
          <FormTextField
            control={control}
            name="name"
            label={t('policies.name')}
            disabled={readOnly}
          />
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
        </Box>
        {section === 'overrides' && (
          <OverridesEditor
            overrides={values.overrides}
            onChange={(next) => set('overrides', next)}
            groups={chosenGroups}
            tools={tools}
            readOnly={readOnly}
          />
        )}
        {section === 'thresholds' && (
          <ThresholdsEditor
            thresholds={values.thresholds}
            onChange={(next) => set('thresholds', next)}
            readOnly={readOnly}
          />
        )}
        {section === 'access' && (
          <AccessEditor
            restricted={values.restricted}
            editors={values.editors}
            users={access.isAdmin ? tools.users : undefined}
            storedEmails={policy?.editor_emails ?? []}
            storedEditors={policy?.editors ?? []}
            readOnly={readOnly}
            onChange={(next) => {
              set('restricted', next.restricted);
              set('editors', next.editors);
            }}
          />
        )}
        {section === 'matchers' && (
          <MatchersList
            matchers={values.matchers}
            onChange={(next) => set('matchers', next)}
            readOnly={readOnly}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{readOnly ? t('common.close') : t('common.cancel')}</Button>
        {!readOnly && (
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            {t('common.save')}
          </Button>
        )}
      </DialogActions>
    </form>
  );
}

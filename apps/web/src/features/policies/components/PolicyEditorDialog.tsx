import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import HistoryIcon from '@mui/icons-material/History';
import type { Policy } from '@palisade/contract';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { useChangeReview } from '../../../components/change-review/useChangeReview';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { VersionHistoryDialog } from '../../../components/version-history/VersionHistoryDialog';
import { ApiError } from '../../../lib/api-client';
import { policiesListKey } from '../api/list-policies';
import { policyRenderKey } from '../api/render-policy';
import { previewPolicy } from '../api/preview-policy';
import { useSavePolicy } from '../api/save-policy';
import { AccessEditor } from './AccessEditor';
import { MatchersList } from './MatchersList';
import { OverridesEditor } from './OverridesEditor';
import { PolicyGeneralFields } from './PolicyGeneralFields';
import {
  PolicyForm,
  policyFormValues,
  type PolicyFormInput,
  type PolicyFormValues,
} from './policy-form';
import { ThresholdsEditor } from './ThresholdsEditor';
import type { PolicyAccess, PolicyTools } from './tools';
import { HistoryLink } from '../../../components/page/HistoryLink';

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
  return props.open ? <PolicyEditor {...props} /> : null;
}

const isReadOnly = (policy: Policy | undefined, access: PolicyAccess) =>
  policy === undefined ? !access.canWrite : !policy.can_edit;

function PolicyEditor({ policy, tools, access, onClose }: PolicyEditorDialogProps) {
  const { t } = useTranslation();
  const [section, setSection] = useState<Section>('general');
  const [history, setHistory] = useState(false);
  const save = useSavePolicy();
  const review = useChangeReview();
  const readOnly = isReadOnly(policy, access);
  const { control, handleSubmit, setValue, setError, formState } = useForm<
    PolicyFormInput,
    unknown,
    PolicyFormValues
  >({ resolver: zodResolver(PolicyForm), defaultValues: policyFormValues(policy) });
  const values = useWatch({ control }) as PolicyFormValues;
  const chosenGroups = tools.groups.filter((g) => values.group_ids.includes(g.id));
  const guard = useUnsavedChangesGuard(formState.isDirty && !readOnly);
  // An Esc that closes the groups list stops there; any other Esc asks like Cancel does.
  const cancel = () => guard.askBefore(onClose);
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
        // Reviewed first when it reaches devices; Cancel leaves the editor as it was.
        const saved = await review.reviewThenSave({
          preview: () => previewPolicy(policy.id, body),
          save: () => save.mutateAsync({ id: policy.id, body }),
          labels: { progress: 'policies.notices.updating', success: 'policies.notices.updated' },
        });
        if (saved === null) return;
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
    <Dialog open onClose={cancel} maxWidth="lg" fullWidth>
      <DialogTitle>
        {policy === undefined
          ? t('policies.create')
          : readOnly
            ? t('policies.viewName', { name: policy.name })
            : t('policies.editName', { name: policy.name })}
      </DialogTitle>
      <form
        noValidate
        onSubmit={(event) => void handleSubmit(submit, () => setSection('general'))(event)}
      >
        <SectionTabs section={section} values={values} onChange={setSection} />
        <DialogContent sx={{ minHeight: 420 }}>
          <Box hidden={section !== 'general'}>
            <PolicyGeneralFields
              control={control}
              policy={policy}
              readOnly={readOnly}
              tools={tools}
            />
          </Box>
          {section === 'overrides' && (
            <OverridesEditor
              overrides={values.overrides}
              onChange={(next) => set('overrides', next)}
              groups={chosenGroups}
              tools={tools}
              readOnly={readOnly}
              policyId={policy?.id}
              savedDisabled={policy?.overrides.filter((o) => o.action === 'disable') ?? []}
            />
          )}
          {section === 'thresholds' && (
            <ThresholdsEditor
              thresholds={values.thresholds}
              onChange={(next) => set('thresholds', next)}
              readOnly={readOnly}
              policyId={policy?.id}
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
          <Box sx={{ marginInlineEnd: 'auto', display: 'flex', gap: 1 }}>
            {policy !== undefined && (
              <Button startIcon={<HistoryIcon />} onClick={() => setHistory(true)}>
                {t('versions.history')}
              </Button>
            )}
            <HistoryLink type={'policy'} id={policy?.id} />
          </Box>
          <Button onClick={cancel}>{readOnly ? t('common.close') : t('common.cancel')}</Button>
          {!readOnly && (
            <Button type="submit" variant="contained" loading={formState.isSubmitting}>
              {t('common.save')}
            </Button>
          )}
        </DialogActions>
      </form>
      {policy !== undefined && (
        <VersionHistoryDialog
          open={history}
          name={policy.name}
          base={`policies/${policy.id}`}
          canRollBack={policy.can_edit}
          invalidate={[policiesListKey, policyRenderKey(policy.id)]}
          // What the form holds is no longer the policy: the editor closes on the restored one.
          onRolledBack={onClose}
          onClose={() => setHistory(false)}
        />
      )}
      {review.dialog}
    </Dialog>
  );
}

/** The editor's sections; the matchers only when the policy has some. */
function SectionTabs({
  section,
  values,
  onChange,
}: {
  section: Section;
  values: PolicyFormValues;
  onChange: (next: Section) => void;
}) {
  const { t } = useTranslation();
  return (
    <Tabs
      value={section}
      onChange={(_event, next: Section) => onChange(next)}
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
  );
}

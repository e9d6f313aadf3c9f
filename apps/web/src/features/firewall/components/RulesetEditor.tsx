import { useMemo, useState, type ReactNode } from 'react';
import { useFieldArray, useForm, useWatch, type Control } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import HistoryIcon from '@mui/icons-material/History';
import {
  FirewallRule,
  FirewallRulesetWrite,
  type FirewallRuleset,
  type FirewallRulesetWriteInput,
} from '@palisade/contract';
import type { z } from 'zod';
import { SortableTable } from '../../../components/data-table/SortableTable';
import { FormSelect } from '../../../components/form/FormSelect';
import { FormTextField } from '../../../components/form/FormTextField';
import { useLockoutRefusal } from '../../../components/lockout/useLockoutRefusal';
import { useChangeReview } from '../../../components/change-review/useChangeReview';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { VersionHistoryDialog } from '../../../components/version-history/VersionHistoryDialog';
import { fieldErrors, leadingIndex } from '../../../lib/field-errors';
import { previewRuleset } from '../api/preview-ruleset';
import { rulesetsListKey } from '../api/list-rulesets';
import { useSaveRuleset } from '../api/save-ruleset';
import { RuleDialog, NEW_RULE } from './RuleDialog';
import { HistoryLink } from '../../../components/page/HistoryLink';
import { rulesetHitsQueryOptions } from '../api/get-ruleset-hits';
import { HitsWindow } from './RuleHits';
import { ruleColumns, type RuleRow } from './RulesetRuleColumns';

type RulesetValues = z.output<typeof FirewallRulesetWrite>;

interface RulesetEditorProps {
  /** null: a new ruleset. */
  ruleset: FirewallRuleset | null;
  readOnly: boolean;
  /** Administrator: may save a ruleset the server says would cut a device off. */
  canOverrideLockout: boolean;
  onClose: () => void;
}

/** A new ruleset starts with what keeps a device reachable: loopback and the replies. */
const EMPTY: RulesetValues = {
  name: '',
  description: '',
  policies: { input: 'drop', forward: 'drop', output: 'accept' },
  rules: [
    FirewallRule.parse({
      chain: 'input',
      action: 'accept',
      in_interface: 'lo',
      counter: false,
      comment: 'loopback',
    }),
    FirewallRule.parse({
      chain: 'input',
      action: 'accept',
      states: ['established', 'related'],
      comment: 'replies, the agent connection to the server included',
    }),
  ],
  override_lockout: false,
};

/** A ruleset: name, default chain policies and the ordered rules (drag to reorder). */
export function RulesetEditor({
  ruleset,
  readOnly,
  canOverrideLockout,
  onClose,
}: RulesetEditorProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [history, setHistory] = useState(false);
  const { control, handleSubmit, formState } = useForm<
    FirewallRulesetWriteInput,
    unknown,
    RulesetValues
  >({
    resolver: zodResolver(FirewallRulesetWrite),
    defaultValues: ruleset ?? EMPTY,
  });
  const { fields, append, insert, remove, move, update } = useFieldArray({
    control,
    name: 'rules',
  });
  const rules = useWatch({ control, name: 'rules' }) as FirewallRule[] | undefined;
  const saving = useRulesetSave({ ruleset, canOverrideLockout, onSaved: onClose });
  const [hitDays, setHitDays] = useState(30);
  const hits = useQuery({
    ...rulesetHitsQueryOptions(ruleset?.id ?? 0, hitDays),
    enabled: ruleset !== null,
  });
  // Hits are of the saved rules: a row keeps its saved rule's hits when moved, and an edited
  // (replaced) or new row has none.
  const [savedIndex] = useState(() => new Map(fields.map((field, index) => [field.id, index])));
  // Unsaved edits (a new order included) are not dropped without asking.
  const guard = useUnsavedChangesGuard(
    formState.isDirty && !readOnly,
    t('firewall.rulesets.discardBody'),
  );

  const rows = useMemo<RuleRow[]>(
    () =>
      fields.flatMap((field, index) => {
        const rule = rules?.[index];
        return rule === undefined ? [] : [{ key: field.id, index, rule }];
      }),
    [fields, rules],
  );
  const columns = ruleColumns({
    t,
    readOnly,
    problems: saving.problems,
    hitsOf:
      ruleset === null
        ? null
        : (row) => {
            const saved = savedIndex.get(row.key);
            return saved === undefined ? undefined : hits.data?.rules[saved];
          },
    edits: { edit: setEditing, update, insert, remove },
  });

  const cancel = () => guard.askBefore(onClose);
  const editedRule = typeof editing === 'number' ? rules?.[editing] : undefined;
  const title =
    ruleset === null
      ? t('firewall.rulesets.create')
      : t('firewall.rulesets.editTitle', { name: ruleset.name });
  return (
    <Dialog open onClose={cancel} fullScreen aria-labelledby="ruleset-dialog-title">
      <form
        noValidate
        onSubmit={(event) => void handleSubmit((values) => saving.submit(values))(event)}
        style={{ display: 'contents' }}
      >
        <DialogTitle id="ruleset-dialog-title">{title}</DialogTitle>
        <DialogContent dividers>
          <RulesetFields control={control} readOnly={readOnly} />
          {saving.otherProblem !== null && <Alert severity="error">{saving.otherProblem}</Alert>}
          <RulesHeading
            count={rows.length}
            hitsWindow={
              ruleset === null ? null : <HitsWindow days={hitDays} onChange={setHitDays} />
            }
            onAdd={readOnly ? null : () => setEditing('new')}
          />
          <SortableTable
            label={t('firewall.rulesets.rulesTable')}
            columns={columns}
            rows={rows}
            getRowId={(row) => row.key}
            onSorted={({ from, to }) => move(from, to)}
            emptyText={t('firewall.rulesets.noRules')}
          />
        </DialogContent>
        <DialogActions>
          <Box sx={{ marginInlineEnd: 'auto', display: 'flex', gap: 1 }}>
            {ruleset !== null && (
              <Button startIcon={<HistoryIcon />} onClick={() => setHistory(true)}>
                {t('versions.history')}
              </Button>
            )}
            <HistoryLink type={'firewall_ruleset'} id={ruleset?.id} />
          </Box>
          <Button onClick={cancel}>{readOnly ? t('common.close') : t('common.cancel')}</Button>
          {!readOnly && (
            <Button type="submit" variant="contained" loading={formState.isSubmitting}>
              {t('common.save')}
            </Button>
          )}
        </DialogActions>
      </form>
      {ruleset !== null && (
        <VersionHistoryDialog
          open={history}
          name={ruleset.name}
          base={`fwruleset/${ruleset.id}`}
          canRollBack={!readOnly}
          canOverrideLockout={canOverrideLockout}
          invalidate={[rulesetsListKey]}
          // What the form holds is no longer the ruleset: the editor closes on the restored one.
          onRolledBack={onClose}
          onClose={() => setHistory(false)}
        />
      )}
      {saving.dialogs}
      {editing !== null && (
        <RuleDialog
          position={editing === 'new' ? null : editing + 1}
          rule={editedRule ?? NEW_RULE}
          problem={typeof editing === 'number' ? saving.problems.get(editing) : undefined}
          onClose={() => setEditing(null)}
          onSave={(rule) => {
            if (editing === 'new') append(rule);
            else update(editing, rule);
            setEditing(null);
          }}
        />
      )}
    </Dialog>
  );
}

/**
 * Saving a ruleset: a new one reaches no device; an edit is reviewed first, unless it was
 * already. The server's complaints are kept by rule, and a lock-out refusal is asked about.
 */
function useRulesetSave({
  ruleset,
  canOverrideLockout,
  onSaved,
}: {
  ruleset: FirewallRuleset | null;
  canOverrideLockout: boolean;
  onSaved: () => void;
}) {
  const save = useSaveRuleset();
  const review = useChangeReview();
  const lockout = useLockoutRefusal<RulesetValues>(canOverrideLockout);
  const [problems, setProblems] = useState<ReadonlyMap<number, string>>(new Map());
  const [otherProblem, setOtherProblem] = useState<string | null>(null);
  const submit = async (values: RulesetValues, reviewed = false) => {
    setProblems(new Map());
    setOtherProblem(null);
    try {
      if (ruleset === null || reviewed) {
        await withProgress(
          ruleset === null
            ? { progress: 'firewall.notices.create', success: 'firewall.notices.created' }
            : { progress: 'firewall.notices.update', success: 'firewall.notices.updated' },
          () => save.mutateAsync({ id: ruleset?.id ?? null, body: values }),
        );
      } else {
        const { id } = ruleset;
        const saved = await review.reviewThenSave({
          preview: () => previewRuleset(id, values),
          save: () => save.mutateAsync({ id, body: values }),
          labels: { progress: 'firewall.notices.update', success: 'firewall.notices.updated' },
        });
        // Back to the editor, the edits as they were.
        if (saved === null) return;
      }
      onSaved();
    } catch (failure) {
      // The progress notice is gone; the shared handler reports, and the rule is marked.
      const byRule = new Map<number, string>();
      for (const [rest, msg] of fieldErrors(failure, 'rules')) {
        const index = leadingIndex(rest);
        if (index !== null && !byRule.has(index)) byRule.set(index, msg);
      }
      setProblems(byRule);
      if (lockout.refusedBy(failure, values)) return;
      if (byRule.size === 0 && fieldErrors(failure, 'policies').size > 0)
        setOtherProblem([...fieldErrors(failure, 'policies').values()].join('; '));
      notifyApiError(failure);
    }
  };
  const dialogs = (
    <>
      {lockout.dialog((values) => void submit({ ...values, override_lockout: true }, true))}
      {review.dialog}
    </>
  );
  return { submit, problems, otherProblem, dialogs };
}

/** Name, description and the chains' default policies. */
function RulesetFields({
  control,
  readOnly,
}: {
  control: Control<FirewallRulesetWriteInput, unknown, RulesetValues>;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const policyOptions = [
    { value: 'accept', label: t('firewall.action.accept') },
    { value: 'drop', label: t('firewall.action.drop') },
  ];
  return (
    <>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={{ md: 2 }}>
        <FormTextField
          control={control}
          name="name"
          label={t('firewall.rulesets.name')}
          disabled={readOnly}
          autoFocus={!readOnly}
        />
        <FormTextField
          control={control}
          name="description"
          label={t('firewall.rulesets.description')}
          disabled={readOnly}
        />
      </Stack>
      <Typography variant="subtitle1" component="h3" sx={{ mt: 2 }}>
        {t('firewall.rulesets.policies')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 2 }} sx={{ maxWidth: 720 }}>
        <FormSelect
          control={control}
          name="policies.input"
          label={t('firewall.chain.input')}
          options={policyOptions}
        />
        <FormSelect
          control={control}
          name="policies.forward"
          label={t('firewall.chain.forward')}
          options={policyOptions}
        />
        <FormSelect
          control={control}
          name="policies.output"
          label={t('firewall.chain.output')}
          options={policyOptions}
        />
      </Stack>
    </>
  );
}

/** The rules' heading, with the hits window and, for a writer, the add button. */
function RulesHeading({
  count,
  hitsWindow,
  onAdd,
}: {
  count: number;
  hitsWindow: ReactNode;
  onAdd: (() => void) | null;
}) {
  const { t } = useTranslation();
  return (
    <Stack
      direction="row"
      sx={{ mt: 3, mb: 1, alignItems: 'center', justifyContent: 'space-between' }}
    >
      <Box>
        <Typography variant="subtitle1" component="h3">
          {t('firewall.rulesets.rules', { count })}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {t('firewall.rulesets.orderHelp')}
        </Typography>
      </Box>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
        {hitsWindow}
        {onAdd !== null && (
          <Button startIcon={<AddIcon />} onClick={onAdd}>
            {t('firewall.rule.add')}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}

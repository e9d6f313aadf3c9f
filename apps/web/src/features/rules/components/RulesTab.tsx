import { useMemo, useState, useSyncExternalStore, type ComponentType } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import UploadIcon from '@mui/icons-material/Upload';
import type { RuleDetail, RuleSummary } from '@palisade/contract';
import { groupsListQueryOptions } from '../api/list-groups';
import { rulesCache } from '../api/rules-cache';
import { fetchRules } from '../api/rules-multi';
import { notifyApiError } from '../../../components/notifications/notify';
import { AddToGroupButton } from './AddToGroupButton';
import { ImportRulesDialog } from './ImportRulesDialog';
import { RuleEditorDialog } from './RuleEditorDialog';
import { RulesTable, type RuleSelection } from './RulesTable';
import { RuleTextDialog } from './RuleTextDialog';

interface RulesTabProps {
  canWrite: boolean;
  /** Shown with a rule's text: what a rule source update changed in it. */
  RuleNote?: ComponentType<{ gid: number; sid: number }>;
}

/** "Rule groups and rulesets": search the ruleset, add, update and upload rules. */
export function RulesTab({ canWrite, RuleNote }: RulesTabProps) {
  const { t } = useTranslation();
  const [groupId, setGroupId] = useState<number | ''>('');
  const [showing, setShowing] = useState<RuleSummary | null>(null);
  const [editing, setEditing] = useState<RuleDetail | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const groups = useQuery(groupsListQueryOptions);
  const version = useSyncExternalStore(rulesCache.subscribe, rulesCache.getVersion);

  const selection = useMemo<RuleSelection>(
    () => ({
      isSelected: (rule) => rulesCache.isSelected(rule.sid),
      toggle: (rules, on) => rulesCache.setSelected(rules, on),
    }),
    // A new object on each cache change re-renders the checkboxes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [version],
  );
  const selected = rulesCache.selectedRules();
  const terms = groupId === '' ? [] : [`group_id:${groupId}`];

  const edit = async (rule: RuleSummary) => {
    try {
      const [detail] = await fetchRules([rule.id]);
      if (detail !== undefined) setEditing(detail);
    } catch (failure) {
      notifyApiError(failure);
    }
  };

  return (
    <>
      <Stack direction="row" sx={{ mb: 2, gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        {canWrite && (
          <>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
              {t('rules.addRule')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<UploadIcon />}
              onClick={() => setImporting(true)}
            >
              {t('rules.upload')}
            </Button>
          </>
        )}
        <TextField
          select
          size="small"
          label={t('rules.groupFilter')}
          value={groupId}
          onChange={(event) =>
            setGroupId(event.target.value === '' ? '' : Number(event.target.value))
          }
          sx={{ minWidth: 220 }}
        >
          <MenuItem value="">{t('rules.allGroups')}</MenuItem>
          {(groups.data?.data ?? []).map((group) => (
            <MenuItem key={group.id} value={group.id}>
              {group.name}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <RulesTable
        key={terms.join(',')}
        label={t('rules.title')}
        terms={terms}
        cached
        selection={canWrite ? selection : undefined}
        onShowText={setShowing}
        onEdit={canWrite ? (rule) => void edit(rule) : undefined}
        toolbar={
          canWrite
            ? (rows) => (
                <Stack
                  direction="row"
                  sx={{ mb: 1, gap: 1, alignItems: 'center', flexWrap: 'wrap', minHeight: 40 }}
                >
                  <Button
                    size="small"
                    disabled={rows.length === 0}
                    onClick={() => selection.toggle(rows, true)}
                  >
                    {t('rules.selectPage')}
                  </Button>
                  <Button
                    size="small"
                    disabled={selected.length === 0}
                    onClick={() => rulesCache.clearSelection()}
                  >
                    {t('rules.clearSelection')}
                  </Button>
                  <Typography variant="body2" color="text.secondary" data-testid="rules-selected">
                    {t('rules.selectedCount', { n: selected.length })}
                  </Typography>
                  <AddToGroupButton
                    rules={selected}
                    groups={groups.data?.data ?? []}
                    onDone={() => rulesCache.clearSelection()}
                  />
                </Stack>
              )
            : undefined
        }
      />
      <RuleTextDialog
        rule={showing}
        RuleNote={RuleNote}
        onClose={() => setShowing(null)}
        onEdit={
          canWrite
            ? (rule) => {
                setShowing(null);
                setEditing(rule);
              }
            : undefined
        }
      />
      <RuleEditorDialog
        open={editing !== null}
        rule={editing === 'new' || editing === null ? undefined : editing}
        groups={groups.data?.data.filter((g) => g.kind === 'custom')}
        onClose={() => setEditing(null)}
      />
      <ImportRulesDialog open={importing} onClose={() => setImporting(false)} />
    </>
  );
}

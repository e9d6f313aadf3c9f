import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { RuleSummary } from '@palisade/contract';
import { RulesTable, type RuleSelection } from './RulesTable';
import { RuleTextDialog } from './RuleTextDialog';

export interface RulePickerProps {
  /** The groups to pick from; the table shows one group's rules at a time. */
  groups: { id: number; name: string }[];
  /** What to do with the picked rules (buttons); `clear` empties the selection. */
  actions: (picked: RuleSummary[], clear: () => void) => ReactNode;
}

/** Rules picked from given groups through the rules list filtered by group_id. */
export function RulePicker({ groups, actions }: RulePickerProps) {
  const { t } = useTranslation();
  const [groupId, setGroupId] = useState<number | undefined>(groups[0]?.id);
  const [picked, setPicked] = useState<Map<number, RuleSummary>>(new Map());
  const [showing, setShowing] = useState<RuleSummary | null>(null);
  const current = groups.some((g) => g.id === groupId) ? groupId : groups[0]?.id;

  const selection = useMemo<RuleSelection>(
    () => ({
      isSelected: (rule) => picked.has(rule.id),
      toggle: (rules, on) =>
        setPicked((previous) => {
          const next = new Map(previous);
          for (const rule of rules) {
            if (on) next.set(rule.id, rule);
            else next.delete(rule.id);
          }
          return next;
        }),
    }),
    [picked],
  );
  const clear = () => setPicked(new Map());

  if (current === undefined)
    return <Typography color="text.secondary">{t('rules.picker.noGroups')}</Typography>;
  return (
    <>
      <TextField
        select
        size="small"
        label={t('rules.picker.group')}
        value={current}
        onChange={(event) => setGroupId(Number(event.target.value))}
        sx={{ minWidth: 260, mb: 1 }}
      >
        {groups.map((group) => (
          <MenuItem key={group.id} value={group.id}>
            {group.name}
          </MenuItem>
        ))}
      </TextField>
      <RulesTable
        key={current}
        label={t('rules.picker.label')}
        terms={[`group_id:${current}`]}
        selection={selection}
        onShowText={setShowing}
        height="40vh"
        toolbar={(rows) => (
          <Stack direction="row" sx={{ mb: 1, gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <Button
              size="small"
              disabled={rows.length === 0}
              onClick={() => selection.toggle(rows, true)}
            >
              {t('rules.selectPage')}
            </Button>
            <Button size="small" disabled={picked.size === 0} onClick={clear}>
              {t('rules.clearSelection')}
            </Button>
            <Typography variant="body2" color="text.secondary">
              {t('rules.selectedCount', { n: picked.size })}
            </Typography>
            {actions([...picked.values()], clear)}
          </Stack>
        )}
      />
      <RuleTextDialog rule={showing} onClose={() => setShowing(null)} />
    </>
  );
}

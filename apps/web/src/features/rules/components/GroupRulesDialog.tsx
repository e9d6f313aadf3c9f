import { useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { RuleGroup, RuleSummary } from '@palisade/contract';
import { notifyApiError } from '../../../components/notifications/notify';
import { useChangeReview } from '../../../components/change-review/useChangeReview';
import { previewGroup } from '../api/preview-group';
import { useSaveGroup } from '../api/save-group';
import { RulesTable, type RuleSelection } from './RulesTable';
import { RuleTextDialog } from './RuleTextDialog';

interface GroupRulesDialogProps {
  group: RuleGroup | null;
  canWrite: boolean;
  onClose: () => void;
  /** Shown with a rule's text: what a rule source update changed in it. */
  RuleNote?: ComponentType<{ gid: number; sid: number }>;
}

/** A group's rules (the rules list filtered by group_id); selected ones can be taken out. */
export function GroupRulesDialog({ group, canWrite, onClose, RuleNote }: GroupRulesDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={group !== null} onClose={onClose} maxWidth="lg" fullWidth>
      <DialogTitle>{group === null ? '' : t('groups.rulesOf', { name: group.name })}</DialogTitle>
      {group !== null && (
        <GroupRules group={group} canWrite={canWrite} onClose={onClose} RuleNote={RuleNote} />
      )}
    </Dialog>
  );
}

function GroupRules({
  group,
  canWrite,
  onClose,
  RuleNote,
}: GroupRulesDialogProps & { group: RuleGroup }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<Map<number, RuleSummary>>(new Map());
  const [showing, setShowing] = useState<RuleSummary | null>(null);
  const save = useSaveGroup();
  const review = useChangeReview();
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

  const removeSelected = async () => {
    const body = { remove_rule_ids: [...picked.keys()] };
    try {
      // The devices whose policies take the group lose these rules: reviewed first.
      const saved = await review.reviewThenSave({
        preview: () => previewGroup(group.id, body),
        save: () => save.mutateAsync({ id: group.id, body }),
        labels: { progress: 'groups.notices.updating', success: 'groups.notices.updated' },
      });
      // Back: the rules stay picked, as they were.
      if (saved === null) return;
      setPicked(new Map());
    } catch (failure) {
      notifyApiError(failure);
    }
  };

  return (
    <>
      <DialogContent>
        {group.description !== '' && (
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            {group.description}
          </Typography>
        )}
        <RulesTable
          label={t('groups.rulesOf', { name: group.name })}
          terms={[`group_id:${group.id}`]}
          selection={canWrite ? selection : undefined}
          onShowText={setShowing}
          height="50vh"
          emptyText={t('groups.noRules')}
          toolbar={
            canWrite
              ? () => (
                  <Stack direction="row" sx={{ mb: 1, gap: 1, alignItems: 'center' }}>
                    <Typography variant="body2" color="text.secondary">
                      {t('rules.selectedCount', { n: picked.size })}
                    </Typography>
                    <Button
                      size="small"
                      color="error"
                      variant="outlined"
                      disabled={picked.size === 0}
                      onClick={() => void removeSelected()}
                    >
                      {t('groups.removeRules')}
                    </Button>
                  </Stack>
                )
              : undefined
          }
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
      {review.dialog}
      <RuleTextDialog rule={showing} onClose={() => setShowing(null)} RuleNote={RuleNote} />
    </>
  );
}

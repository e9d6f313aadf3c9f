import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import type { RuleGroup, RuleSummary } from '@palisade/contract';
import { notifyApiError } from '../../../components/notifications/notify';
import { useChangeReview } from '../../../components/change-review/useChangeReview';
import { previewGroup } from '../api/preview-group';
import { useSaveGroup } from '../api/save-group';

interface AddToGroupButtonProps {
  rules: RuleSummary[];
  groups: RuleGroup[];
  onDone: () => void;
}

/**
 * Adds the selected rules to a group chosen from a menu (PUT /groups/{id} add_rule_ids), after
 * the review of what the devices whose policies take the group would receive.
 */
export function AddToGroupButton({ rules, groups, onDone }: AddToGroupButtonProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const save = useSaveGroup();
  const review = useChangeReview();

  const add = async (group: RuleGroup) => {
    setAnchor(null);
    const body = { add_rule_ids: rules.map((r) => r.id) };
    try {
      // The devices whose policies take the group get these rules: reviewed first.
      const saved = await review.reviewThenSave({
        preview: () => previewGroup(group.id, body),
        save: () => save.mutateAsync({ id: group.id, body }),
        labels: { progress: 'groups.notices.updating', success: 'groups.notices.updated' },
      });
      // Back: the selection stays, nothing was added.
      if (saved === null) return;
      onDone();
    } catch (failure) {
      notifyApiError(failure);
    }
  };

  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<PlaylistAddIcon />}
        disabled={rules.length === 0 || groups.length === 0}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t('rules.addToGroup')}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {groups.map((group) => (
          <MenuItem key={group.id} onClick={() => void add(group)}>
            {group.name}
          </MenuItem>
        ))}
      </Menu>
      {review.dialog}
    </>
  );
}

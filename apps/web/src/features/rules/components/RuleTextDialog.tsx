import type { ComponentType } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { RuleDetail, RuleSummary } from '@palisade/contract';
import { notifyApiError } from '../../../components/notifications/notify';
import { useChangeReview } from '../../../components/change-review/useChangeReview';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { rulesCache } from '../api/rules-cache';
import { ruleDetailQueryOptions } from '../api/rules-multi';
import { previewRule } from '../api/preview-rule';
import { useSetRuleEnabled } from '../api/save-rule';

interface RuleTextDialogProps {
  rule: RuleSummary | null;
  onClose: () => void;
  /** Given to writers: edit the text, and switch the rule on or off. */
  onEdit?: (rule: RuleDetail) => void;
  /** Shown under the text: what a rule source update changed in the rule, if any. */
  RuleNote?: ComponentType<{ gid: number; sid: number }>;
}

/** A rule's full text on demand (POST /rulesmulti, answered from the cache when known). */
export function RuleTextDialog({ rule, onClose, onEdit, RuleNote }: RuleTextDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={rule !== null} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{rule === null ? '' : t('rules.textTitle', { sid: rule.sid })}</DialogTitle>
      {rule !== null && (
        <RuleText rule={rule} onClose={onClose} onEdit={onEdit} RuleNote={RuleNote} />
      )}
    </Dialog>
  );
}

function RuleText({
  rule,
  onClose,
  onEdit,
  RuleNote,
}: RuleTextDialogProps & { rule: RuleSummary }) {
  const { t } = useTranslation();
  const cached = rulesCache.get(rule.sid);
  const detail = useQuery({
    ...ruleDetailQueryOptions(rule.id),
    initialData:
      cached?.text !== undefined && cached.id === rule.id && 'metadata' in cached
        ? (cached as RuleDetail)
        : undefined,
  });
  const error = detail.isError ? apiErrorMessage(detail.error) : null;
  const setEnabled = useSetRuleEnabled();
  const review = useChangeReview();
  const toggle = async (current: RuleDetail) => {
    const body = { id: current.id, enabled: !current.enabled };
    try {
      await review.reviewThenSave({
        preview: () => previewRule(body),
        save: () => setEnabled.mutateAsync(body),
        labels: { progress: 'rules.notices.updating', success: 'rules.notices.updated' },
      });
    } catch (failure) {
      notifyApiError(failure);
    }
  };
  return (
    <>
      <DialogContent>
        <Typography sx={{ mb: 1 }}>{rule.msg}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {[
            `${t('rules.columns.source')}: ${rule.source}`,
            `${t('rules.columns.classtype')}: ${rule.classtype ?? '—'}`,
            `${t('rules.columns.priority')}: ${rule.priority ?? '—'}`,
          ].join(' · ')}
        </Typography>
        {detail.isPending && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <CircularProgress size={18} />
            <span>{t('common.loading')}</span>
          </Stack>
        )}
        {error !== null && <Alert severity="error">{errorText(error, t)}</Alert>}
        {detail.data !== undefined && (
          <>
            <Box
              component="pre"
              data-testid="rule-text"
              dir="ltr"
              sx={{
                p: 2,
                bgcolor: 'action.hover',
                borderRadius: 1,
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-all',
                fontSize: 13,
                m: 0,
                // Left to right in every language; `start` of this dir="ltr" box is its left.
                textAlign: 'start',
              }}
            >
              {detail.data.text}
            </Box>
            {RuleNote !== undefined && (
              <Box sx={{ mt: 1 }}>
                <RuleNote gid={rule.gid} sid={rule.sid} />
              </Box>
            )}
            <Stack direction="row" sx={{ mt: 2, flexWrap: 'wrap', gap: 1 }}>
              {detail.data.groups.map((group) => (
                <Chip key={group} size="small" label={group} />
              ))}
              {detail.data.references.map((ref) => (
                <Chip
                  key={`${ref.system}:${ref.id}`}
                  size="small"
                  variant="outlined"
                  label={`${ref.system}: ${ref.id}`}
                />
              ))}
            </Stack>
          </>
        )}
      </DialogContent>
      <DialogActions>
        {onEdit !== undefined && detail.data !== undefined && (
          <>
            <Button loading={setEnabled.isPending} onClick={() => void toggle(detail.data)}>
              {detail.data.enabled
                ? t('policies.overrides.disable')
                : t('policies.overrides.enable')}
            </Button>
            <Button onClick={() => onEdit(detail.data)}>{t('rules.edit')}</Button>
          </>
        )}
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
      {review.dialog}
    </>
  );
}

import { useTranslation } from 'react-i18next';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { PreviewDevice, PreviewRule } from '@palisade/contract';
import { ScriptDiff } from './ScriptDiff';

interface DeviceChangeProps {
  device: PreviewDevice;
  /** Open at once (the Deploy page opens one device at a time). */
  defaultExpanded?: boolean;
}

/**
 * What one device would receive: rules added, removed and changed, its scripts' diffs and its
 * variables. Review changes shows it per device reached; the Deploy page per pending device.
 */
export function DeviceChange({ device, defaultExpanded = false }: DeviceChangeProps) {
  const { t } = useTranslation();
  const { policy, variables } = device;
  return (
    <Accordion disableGutters defaultExpanded={defaultExpanded} data-testid="change-review-device">
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography sx={{ fontWeight: 500 }}>{device.name}</Typography>
          {policy !== null && (
            <Chip
              size="small"
              label={t('changeReview.rules', {
                added: policy.added,
                removed: policy.removed,
                changed: policy.changed,
              })}
            />
          )}
          {device.nftables_diff !== null && (
            <Chip size="small" label={t('changeReview.firewall')} />
          )}
          {device.routes_diff !== null && <Chip size="small" label={t('changeReview.routes')} />}
          {variables !== null && <Chip size="small" label={t('changeReview.variables')} />}
        </Stack>
      </AccordionSummary>
      <AccordionDetails>
        {policy !== null && (
          <>
            {policy.from?.id !== policy.to?.id && (
              <Typography variant="body2">
                {t('changeReview.policyChange', {
                  from: policy.from?.name ?? t('changeReview.none'),
                  to: policy.to?.name ?? t('changeReview.none'),
                })}
              </Typography>
            )}
            <RuleList
              title={t('changeReview.added')}
              rules={policy.added_rules}
              total={policy.added}
            />
            <RuleList
              title={t('changeReview.removed')}
              rules={policy.removed_rules}
              total={policy.removed}
            />
            <RuleList
              title={t('changeReview.changed')}
              rules={policy.changed_rules}
              total={policy.changed}
            />
            {policy.thresholds_diff !== null && (
              <ScriptDiff title={t('changeReview.thresholds')} diff={policy.thresholds_diff} />
            )}
          </>
        )}
        {device.nftables_diff !== null && (
          <ScriptDiff title={t('changeReview.nftables')} diff={device.nftables_diff} />
        )}
        {device.routes_diff !== null && (
          <ScriptDiff title={t('changeReview.routeCommands')} diff={device.routes_diff} />
        )}
        {variables !== null && (
          <Typography variant="body2" component="div" dir="ltr" sx={{ mt: 1, textAlign: 'start' }}>
            {variables.added.map(({ name, value }) => (
              <div key={`+${name}`}>{`+ ${name} = ${value}`}</div>
            ))}
            {variables.removed.map(({ name, value }) => (
              <div key={`-${name}`}>{`- ${name} = ${value}`}</div>
            ))}
            {variables.changed.map((change) => (
              <div key={`~${change.name}`}>{`~ ${change.name}: ${change.old} → ${change.new}`}</div>
            ))}
          </Typography>
        )}
      </AccordionDetails>
    </Accordion>
  );
}

function RuleList({ title, rules, total }: { title: string; rules: PreviewRule[]; total: number }) {
  const { t } = useTranslation();
  if (total === 0) return null;
  return (
    <>
      <Typography variant="subtitle2" component="h4" sx={{ mt: 1 }}>
        {`${title} (${total})`}
      </Typography>
      <Typography variant="body2" component="ul" sx={{ m: 0, ps: 3 }}>
        {rules.map((rule) => (
          <li key={`${rule.gid}:${rule.sid}`}>
            <span dir="ltr">{`${rule.gid}:${rule.sid}`}</span> {rule.msg}
          </li>
        ))}
      </Typography>
      {total > rules.length && (
        <Typography variant="caption" color="text.secondary">
          {t('changeReview.moreRules', { count: total - rules.length })}
        </Typography>
      )}
    </>
  );
}

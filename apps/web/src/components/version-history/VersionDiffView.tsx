import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { VersionDiff } from '@palisade/contract';
import { apiErrorMessage, errorText } from '../../lib/errors';
import { versionDiffQueryOptions } from './api';
import { ChangedLine, UnifiedDiff, WholeLine } from './DiffViews';

/** What changed from version a to version b, as the kind of object has it. */
export function VersionDiffView({ base, a, b }: { base: string; a: number; b: number }) {
  const { t } = useTranslation();
  const diff = useQuery(versionDiffQueryOptions(base, a, b));
  const error = diff.isError ? apiErrorMessage(diff.error) : null;
  return (
    <Stack spacing={2} data-testid="version-diff">
      <Typography variant="subtitle1">{t('versions.comparing', { a, b })}</Typography>
      {diff.isPending && <LinearProgress aria-label={t('common.loading')} />}
      {error !== null && <Alert severity="error">{errorText(error, t)}</Alert>}
      {diff.data !== undefined && <DiffBody diff={diff.data} />}
    </Stack>
  );
}

function DiffBody({ diff }: { diff: VersionDiff }) {
  const { t } = useTranslation();
  const rules = diff.rules ?? diff.firewall_rules;
  return (
    <>
      {diff.changed_fields !== undefined && diff.changed_fields.length > 0 && (
        <Typography variant="body2">
          {t('versions.changedSettings', { fields: diff.changed_fields.join(', ') })}
        </Typography>
      )}
      {rules !== undefined && (
        <Stack spacing={1}>
          <Typography variant="subtitle2" data-testid="version-rule-counts">
            {t('versions.ruleCounts', rules.counts)}
          </Typography>
          {diff.rules?.truncated === true && (
            <Alert severity="info">{t('versions.truncated')}</Alert>
          )}
          {diff.firewall_rules?.policies.map((p) => (
            <Typography key={p.chain} variant="body2">
              {t('versions.chainPolicy', { chain: p.chain, old: p.old, new: p.new })}
            </Typography>
          ))}
          {rules.added.map((rule, index) => (
            <WholeLine key={`a${index}`} side="added" text={rule.text} />
          ))}
          {rules.removed.map((rule, index) => (
            <WholeLine key={`r${index}`} side="removed" text={rule.text} />
          ))}
          {rules.changed.map((rule, index) => (
            <ChangedLine key={`c${index}`} parts={rule.diff} />
          ))}
        </Stack>
      )}
      {diff.variables !== undefined && (
        <Stack spacing={1}>
          {diff.variables.added.map((v) => (
            <WholeLine key={`a${v.name}`} side="added" text={`${v.name} = ${v.value}`} />
          ))}
          {diff.variables.removed.map((v) => (
            <WholeLine key={`r${v.name}`} side="removed" text={`${v.name} = ${v.value}`} />
          ))}
          {diff.variables.changed.map((v) => (
            <ChangedLine
              key={`c${v.name}`}
              parts={[
                { value: `${v.name} = ` },
                { value: v.old, removed: true },
                { value: v.new, added: true },
              ]}
            />
          ))}
          {diff.variables.added.length +
            diff.variables.removed.length +
            diff.variables.changed.length ===
            0 && (
            <Typography variant="body2" color="text.secondary">
              {t('versions.noChange')}
            </Typography>
          )}
        </Stack>
      )}
      {diff.thresholds !== undefined && (
        <UnifiedDiff title="threshold.config" diff={diff.thresholds} />
      )}
      {diff.nftables !== undefined && <UnifiedDiff title="nftables" diff={diff.nftables} />}
      {diff.routes !== undefined && <UnifiedDiff title={t('versions.routes')} diff={diff.routes} />}
      {diff.nat !== undefined && <UnifiedDiff title={t('versions.nat')} diff={diff.nat} />}
    </>
  );
}

import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import type { OverrideAction, RuleSummary } from '@palisade/contract';
import { BacktestPanel } from '../../../components/backtest/BacktestPanel';
import { fromLocalInput, toLocalInput } from '../../../components/expiry/local-time';
import { overrideRulesQueryOptions } from '../api/override-rules';
import { withOverrides, type PolicyFormValues } from './policy-form';
import type { PolicyTools } from './tools';

type Overrides = PolicyFormValues['overrides'];

interface OverridesEditorProps {
  overrides: Overrides;
  onChange: (next: Overrides) => void;
  /** The policy's groups: rules to override are picked from them. */
  groups: { id: number; name: string }[];
  tools: PolicyTools;
  readOnly: boolean;
  /** The saved policy, and the rules it disables: new disables are backtested on its alerts. */
  policyId?: number | undefined;
  savedDisabled?: { rule_id: number }[];
}

const ACTIONS: OverrideAction[] = ['drop', 'disable', 'enable'];

/** Per-rule overrides: alert → drop, disable, enable; rules picked from the policy's groups. */
export function OverridesEditor(props: OverridesEditorProps) {
  const { overrides, onChange, groups, tools, readOnly, policyId, savedDisabled = [] } = props;
  const { t } = useTranslation();
  const [known, setKnown] = useState<Map<number, RuleSummary>>(new Map());
  const ids = overrides.map((o) => o.rule_id).filter((id) => !known.has(id));
  const loaded = useQuery(overrideRulesQueryOptions(ids, tools.fetchRules));
  const ruleOf = (id: number) => known.get(id) ?? loaded.data?.get(id);
  const label = (action: OverrideAction) =>
    ({
      drop: t('policies.overrides.drop'),
      disable: t('policies.overrides.disable'),
      enable: t('policies.overrides.enable'),
    })[action];

  /** Sets the end date or reason of one override. */
  const change = (ruleId: number, fields: Partial<Overrides[number]>) =>
    onChange(overrides.map((o) => (o.rule_id === ruleId ? { ...o, ...fields } : o)));

  const apply = (rules: RuleSummary[], action: OverrideAction, clear: () => void) => {
    setKnown((previous) => new Map([...previous, ...rules.map((r) => [r.id, r] as const)]));
    onChange(
      withOverrides(
        overrides,
        rules.map((r) => r.id),
        action,
      ),
    );
    clear();
  };

  // Rules this edit disables that the saved policy does not: what they would have removed.
  const alreadyDisabled = new Set(savedDisabled.map((o) => o.rule_id));
  const newlyDisabled = overrides
    .filter((o) => o.action === 'disable' && !alreadyDisabled.has(o.rule_id))
    .map((o) => ({ rule_id: o.rule_id, action: 'disable' as const }));

  return (
    <>
      <TableContainer component={Paper} variant="outlined" sx={{ maxHeight: 300, mb: 2 }}>
        <Table size="small" stickyHeader aria-label={t('policies.overrides.title')}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 100 }}>{t('rules.columns.sid')}</TableCell>
              <TableCell>{t('rules.columns.msg')}</TableCell>
              <TableCell sx={{ width: 160 }}>{t('policies.overrides.action')}</TableCell>
              <TableCell sx={{ width: 210 }}>{t('expiry.expiresLabel')}</TableCell>
              <TableCell sx={{ width: 160 }}>{t('expiry.reason')}</TableCell>
              <TableCell sx={{ width: 56 }} />
            </TableRow>
          </TableHead>
          <TableBody>
            {overrides.length === 0 && (
              <TableRow>
                <TableCell colSpan={6} sx={{ textAlign: 'center', color: 'text.secondary', py: 3 }}>
                  {t('policies.overrides.empty')}
                </TableCell>
              </TableRow>
            )}
            {overrides.map((override) => (
              <OverrideRow
                key={override.rule_id}
                override={override}
                rule={ruleOf(override.rule_id)}
                loading={loaded.isFetching}
                readOnly={readOnly}
                label={label}
                onAction={(action) =>
                  onChange(withOverrides(overrides, [override.rule_id], action))
                }
                onFields={(fields) => change(override.rule_id, fields)}
                onRemove={() => onChange(overrides.filter((o) => o.rule_id !== override.rule_id))}
              />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {policyId !== undefined && newlyDisabled.length > 0 && (
        <Box sx={{ mb: 2 }}>
          <BacktestPanel policyId={policyId} entries={{ overrides: newlyDisabled }} />
        </Box>
      )}
      {!readOnly && (
        <>
          <Typography variant="subtitle2" sx={{ mb: 1 }}>
            {t('policies.overrides.pick')}
          </Typography>
          {groups.length === 0 ? (
            <Typography color="text.secondary">{t('policies.overrides.addGroupsFirst')}</Typography>
          ) : (
            <tools.RulePicker
              groups={groups}
              actions={(picked, clear) =>
                ACTIONS.map((action) => (
                  <Button
                    key={action}
                    size="small"
                    variant="outlined"
                    disabled={picked.length === 0}
                    onClick={() => apply(picked, action, clear)}
                  >
                    {t('policies.overrides.applyTo', { action: label(action) })}
                  </Button>
                ))
              }
            />
          )}
        </>
      )}
    </>
  );
}

interface OverrideRowProps {
  override: Overrides[number];
  /** The overridden rule, once read. */
  rule: RuleSummary | undefined;
  loading: boolean;
  readOnly: boolean;
  label: (action: OverrideAction) => string;
  onAction: (action: OverrideAction) => void;
  /** Sets the end date or reason. */
  onFields: (fields: Partial<Overrides[number]>) => void;
  onRemove: () => void;
}

/** One override: the rule, its action, until when, why, and its remove button. */
function OverrideRow({
  override,
  rule,
  loading,
  readOnly,
  label,
  onAction,
  onFields,
  onRemove,
}: OverrideRowProps) {
  const { t } = useTranslation();
  const sid = rule?.sid ?? '';
  return (
    <TableRow data-testid="override-row">
      <TableCell>{rule?.sid ?? `#${override.rule_id}`}</TableCell>
      <TableCell>{rule?.msg ?? (loading ? t('common.loading') : '')}</TableCell>
      <TableCell>
        <TextField
          select
          size="small"
          fullWidth
          disabled={readOnly}
          value={override.action}
          slotProps={{
            htmlInput: { 'aria-label': t('policies.overrides.actionOf', { sid }) },
          }}
          onChange={(event) => onAction(event.target.value as OverrideAction)}
        >
          {ACTIONS.map((action) => (
            <MenuItem key={action} value={action}>
              {label(action)}
            </MenuItem>
          ))}
        </TextField>
      </TableCell>
      <TableCell>
        <TextField
          type="datetime-local"
          size="small"
          fullWidth
          disabled={readOnly}
          value={toLocalInput(override.expires_at)}
          slotProps={{
            htmlInput: { dir: 'ltr', 'aria-label': t('expiry.expiresOf', { sid }) },
          }}
          onChange={(event) => onFields({ expires_at: fromLocalInput(event.target.value) })}
        />
      </TableCell>
      <TableCell>
        <TextField
          size="small"
          fullWidth
          disabled={readOnly}
          value={override.reason ?? ''}
          slotProps={{
            htmlInput: { maxLength: 500, 'aria-label': t('expiry.reasonOf', { sid }) },
          }}
          onChange={(event) => onFields({ reason: event.target.value })}
        />
      </TableCell>
      <TableCell>
        {!readOnly && (
          <IconButton
            size="small"
            aria-label={t('policies.overrides.remove', { sid })}
            onClick={onRemove}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        )}
      </TableCell>
    </TableRow>
  );
}

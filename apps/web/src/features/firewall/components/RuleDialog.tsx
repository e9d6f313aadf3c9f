import { useForm, useController, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import {
  ConnectionState,
  FirewallAction,
  FirewallChain,
  FirewallProtocol,
  FirewallRule,
  type FirewallRuleInput,
} from '@palisade/contract';
import { FormExpiryField } from '../../../components/form/FormExpiryField';
import { FormSelect } from '../../../components/form/FormSelect';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FormTextField } from '../../../components/form/FormTextField';
import { useUnsavedChangesGuard } from '../../../components/unsaved/useUnsavedChangesGuard';
import { ACTION_KEY, CHAIN_KEY, PROTOCOL_KEY, STATE_KEY } from './labels';

export const NEW_RULE: FirewallRule = {
  chain: 'input',
  action: 'accept',
  protocol: 'tcp',
  source: '',
  destination: '',
  source_ports: '',
  destination_ports: '',
  in_interface: '',
  out_interface: '',
  states: ['new'],
  log: false,
  counter: true,
  comment: '',
  enabled: true,
};

interface RuleDialogProps {
  /** The rule's 1-based position, or null for a new rule. */
  position: number | null;
  rule: FirewallRule;
  /** The server's complaint about this rule, if any. */
  problem?: string;
  onSave: (rule: FirewallRule) => void;
  onClose: () => void;
}

/** The rule row editor. */
export function RuleDialog({ position, rule, problem, onSave, onClose }: RuleDialogProps) {
  const { t } = useTranslation();
  const { control, handleSubmit, formState } = useForm<FirewallRuleInput, unknown, FirewallRule>({
    resolver: zodResolver(FirewallRule),
    defaultValues: rule,
  });
  const guard = useUnsavedChangesGuard(formState.isDirty);
  const cancel = () => guard.askBefore(onClose);
  const options = <T extends string>(values: readonly T[], keys: Record<T, string>) =>
    values.map((value) => ({ value, label: t(keys[value] as 'firewall.chain.input') }));
  return (
    <Dialog open onClose={cancel} fullWidth maxWidth="md" aria-labelledby="rule-dialog-title">
      <form
        noValidate
        onSubmit={(event) => {
          // The rule form sits inside the ruleset form's dialog: keep the submit here.
          event.stopPropagation();
          void handleSubmit(onSave)(event);
        }}
      >
        <DialogTitle id="rule-dialog-title">
          {position === null
            ? t('firewall.rule.addTitle')
            : t('firewall.rule.editTitle', { position })}
        </DialogTitle>
        <DialogContent dividers>
          {problem !== undefined && <Alert severity="error">{problem}</Alert>}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 2 }}>
            <FormSelect
              control={control}
              name="chain"
              label={t('firewall.rule.chain')}
              options={options(FirewallChain.options, CHAIN_KEY)}
            />
            <FormSelect
              control={control}
              name="action"
              label={t('firewall.rule.action')}
              options={options(FirewallAction.options, ACTION_KEY)}
            />
            <FormSelect
              control={control}
              name="protocol"
              label={t('firewall.rule.protocol')}
              options={options(FirewallProtocol.options, PROTOCOL_KEY)}
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 2 }}>
            <FormTextField
              control={control}
              name="source"
              label={t('firewall.rule.source')}
              helperText={t('firewall.rule.addressHelp')}
              slotProps={{ htmlInput: { spellCheck: false, dir: 'ltr' } }}
            />
            <FormTextField
              control={control}
              name="source_ports"
              label={t('firewall.rule.sourcePorts')}
              helperText={t('firewall.rule.portsHelp')}
              slotProps={{ htmlInput: { spellCheck: false, dir: 'ltr' } }}
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 2 }}>
            <FormTextField
              control={control}
              name="destination"
              label={t('firewall.rule.destination')}
              slotProps={{ htmlInput: { spellCheck: false, dir: 'ltr' } }}
            />
            <FormTextField
              control={control}
              name="destination_ports"
              label={t('firewall.rule.destinationPorts')}
              slotProps={{ htmlInput: { spellCheck: false, dir: 'ltr' } }}
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 2 }}>
            <FormTextField
              control={control}
              name="in_interface"
              label={t('firewall.rule.inInterface')}
              slotProps={{ htmlInput: { spellCheck: false, dir: 'ltr' } }}
            />
            <FormTextField
              control={control}
              name="out_interface"
              label={t('firewall.rule.outInterface')}
              slotProps={{ htmlInput: { spellCheck: false, dir: 'ltr' } }}
            />
          </Stack>
          <StatesField control={control} />
          <FormTextField control={control} name="comment" label={t('firewall.rule.comment')} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 2 }}>
            <FormExpiryField control={control} name="expires_at" />
            <FormTextField control={control} name="reason" label={t('expiry.reason')} />
          </Stack>
          <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap' }}>
            <FormSwitch control={control} name="enabled" label={t('firewall.rule.enabled')} />
            <FormSwitch control={control} name="counter" label={t('firewall.rule.counter')} />
            <FormSwitch control={control} name="log" label={t('firewall.rule.log')} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={cancel}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained">
            {position === null ? t('firewall.rule.add') : t('firewall.rule.apply')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

function StatesField({ control }: { control: Control<FirewallRuleInput> }) {
  const { t } = useTranslation();
  const { field } = useController({ control, name: 'states' });
  const chosen = field.value ?? [];
  return (
    <Stack sx={{ mt: 2 }}>
      <FormLabel component="legend">{t('firewall.rule.states')}</FormLabel>
      <FormGroup row>
        {ConnectionState.options.map((state) => (
          <FormControlLabel
            key={state}
            label={t(STATE_KEY[state])}
            control={
              <Checkbox
                checked={chosen.includes(state)}
                onChange={(event) =>
                  field.onChange(
                    event.target.checked
                      ? ConnectionState.options.filter((s) => s === state || chosen.includes(s))
                      : chosen.filter((s) => s !== state),
                  )
                }
              />
            }
          />
        ))}
      </FormGroup>
    </Stack>
  );
}

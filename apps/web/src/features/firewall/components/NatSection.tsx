import type { ReactNode } from 'react';
import { useController, useFieldArray, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import type { DeviceNetworkInput } from '@palisade/contract';
import { FormTextField } from '../../../components/form/FormTextField';
import { NumberField } from './NumberField';

interface NatSectionProps {
  control: Control<DeviceNetworkInput>;
  readOnly: boolean;
}

const ltr = { htmlInput: { spellCheck: false, dir: 'ltr' } };
const rowSx = { p: 1.5, mb: 1, gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' } as const;

/** Source NAT: masquerade (no address) or SNAT on the way out of an interface. */
export function SourceNatSection({ control, readOnly }: NatSectionProps) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({ control, name: 'source_nat' });
  return (
    <EditableRows
      ids={fields.map((field) => field.id)}
      readOnly={readOnly}
      emptyText={t('firewall.nat.noSourceNat')}
      addText={t('firewall.nat.addSourceNat')}
      removeLabel={(index) => t('firewall.nat.removeSourceNat', { index: index + 1 })}
      onAdd={() => append({ out_interface: '', source: '', to_address: '' })}
      onRemove={remove}
      row={(index) => (
        <>
          <FormTextField
            control={control}
            name={`source_nat.${index}.out_interface`}
            label={t('firewall.nat.outInterface')}
            size="small"
            disabled={readOnly}
            sx={{ width: 160 }}
            slotProps={ltr}
          />
          <FormTextField
            control={control}
            name={`source_nat.${index}.source`}
            label={t('firewall.nat.source')}
            size="small"
            disabled={readOnly}
            sx={{ flex: 2, minWidth: 200 }}
            slotProps={ltr}
          />
          <FormTextField
            control={control}
            name={`source_nat.${index}.to_address`}
            label={t('firewall.nat.toAddress')}
            helperText={t('firewall.nat.masqueradeHelp')}
            size="small"
            disabled={readOnly}
            sx={{ flex: 1, minWidth: 180 }}
            slotProps={ltr}
          />
        </>
      )}
    />
  );
}

/** Port forwards (DNAT): traffic to an interface's port goes to an inner address. */
export function PortForwardsSection({ control, readOnly }: NatSectionProps) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({ control, name: 'port_forwards' });
  return (
    <EditableRows
      ids={fields.map((field) => field.id)}
      readOnly={readOnly}
      emptyText={t('firewall.nat.noForwards')}
      addText={t('firewall.nat.addForward')}
      removeLabel={(index) => t('firewall.nat.removeForward', { index: index + 1 })}
      onAdd={() =>
        append({
          in_interface: '',
          protocol: 'tcp',
          port: 8080,
          to_address: '',
          to_port: null,
          comment: '',
        })
      }
      onRemove={remove}
      row={(index) => (
        <>
          <FormTextField
            control={control}
            name={`port_forwards.${index}.in_interface`}
            label={t('firewall.nat.inInterface')}
            size="small"
            disabled={readOnly}
            sx={{ width: 140 }}
            slotProps={ltr}
          />
          <ProtocolSelect
            control={control}
            index={index}
            label={t('firewall.rule.protocol')}
            disabled={readOnly}
          />
          <NumberField
            control={control}
            name={`port_forwards.${index}.port`}
            label={t('firewall.nat.port')}
            size="small"
            disabled={readOnly}
            width={100}
          />
          <FormTextField
            control={control}
            name={`port_forwards.${index}.to_address`}
            label={t('firewall.nat.toAddress')}
            size="small"
            disabled={readOnly}
            sx={{ width: 180 }}
            slotProps={ltr}
          />
          <NumberField
            control={control}
            name={`port_forwards.${index}.to_port`}
            label={t('firewall.nat.toPort')}
            size="small"
            disabled={readOnly}
            width={100}
          />
          <FormTextField
            control={control}
            name={`port_forwards.${index}.comment`}
            label={t('firewall.rule.comment')}
            size="small"
            disabled={readOnly}
            sx={{ flex: 1, minWidth: 160 }}
          />
        </>
      )}
    />
  );
}

interface EditableRowsProps {
  /** One stable id per row (react-hook-form's field ids). */
  ids: string[];
  readOnly: boolean;
  emptyText: string;
  addText: string;
  removeLabel: (index: number) => string;
  onAdd: () => void;
  onRemove: (index: number) => void;
  row: (index: number) => ReactNode;
}

/** A list of one-line row editors: a note when empty, a remove button per row, an add button. */
function EditableRows({
  ids,
  readOnly,
  emptyText,
  addText,
  removeLabel,
  onAdd,
  onRemove,
  row,
}: EditableRowsProps) {
  return (
    <>
      {ids.length === 0 && <Typography color="text.secondary">{emptyText}</Typography>}
      {ids.map((id, index) => (
        <Paper key={id} variant="outlined" component={Stack} direction="row" sx={rowSx}>
          {row(index)}
          {!readOnly && (
            <IconButton
              aria-label={removeLabel(index)}
              onClick={() => onRemove(index)}
              sx={{ mt: 2 }}
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          )}
        </Paper>
      ))}
      {!readOnly && (
        <Button startIcon={<AddIcon />} onClick={onAdd}>
          {addText}
        </Button>
      )}
    </>
  );
}

interface ProtocolSelectProps {
  control: Control<DeviceNetworkInput>;
  index: number;
  label: string;
  disabled: boolean;
}

/** TCP or UDP, as compact as the row's other inputs. */
function ProtocolSelect({ control, index, label, disabled }: ProtocolSelectProps) {
  const { field } = useController({ control, name: `port_forwards.${index}.protocol` });
  return (
    <TextField
      select
      size="small"
      margin="normal"
      label={label}
      name={field.name}
      inputRef={field.ref}
      value={field.value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      disabled={disabled}
      sx={{ width: 110 }}
    >
      <MenuItem value="tcp">TCP</MenuItem>
      <MenuItem value="udp">UDP</MenuItem>
    </TextField>
  );
}

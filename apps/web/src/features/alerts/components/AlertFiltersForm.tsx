import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import FilterListIcon from '@mui/icons-material/FilterList';
import type { AlertFilters } from '@palisade/contract';
import { alertDeviceOptionsQueryOptions } from '../api/device-options';
import {
  EMPTY_FORM,
  RANGES,
  toFilters,
  type FilterErrors,
  type FilterForm,
  type RangeId,
} from '../filters';

const RANGE_LABELS = {
  any: 'alerts.filters.ranges.any',
  '1h': 'alerts.filters.ranges.1h',
  '24h': 'alerts.filters.ranges.24h',
  '7d': 'alerts.filters.ranges.7d',
  '30d': 'alerts.filters.ranges.30d',
  custom: 'alerts.filters.ranges.custom',
} as const satisfies Record<RangeId, string>;

type TextKey = 'signature' | 'src_ip' | 'src_port' | 'dest_ip' | 'dest_port';

const SEVERITIES = ['1', '2', '3', '4'] as const;
const PROTOCOLS = ['TCP', 'UDP', 'ICMP', 'IPv6-ICMP', 'SCTP'] as const;

interface AlertFiltersFormProps {
  form: FilterForm;
  onApply: (form: FilterForm, filters: AlertFilters) => void;
}

/**
 * The Alerts filters: device, time range, severity, signature, addresses, ports, protocol, state
 * and star.
 */
export function AlertFiltersForm({ form: applied, onApply }: AlertFiltersFormProps) {
  const { t } = useTranslation();
  const [form, setForm] = useState<FilterForm>(applied);
  const [errors, setErrors] = useState<FilterErrors>({});

  const set =
    <K extends keyof FilterForm>(key: K) =>
    (value: FilterForm[K]) =>
      setForm((previous) => ({ ...previous, [key]: value }));

  const apply = (next: FilterForm) => {
    const result = toFilters(next, Date.now());
    setErrors(result.errors);
    if (Object.keys(result.errors).length === 0) onApply(next, result.filters);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(form);
  };
  const clear = () => {
    setForm(EMPTY_FORM);
    apply(EMPTY_FORM);
  };

  const text = (key: TextKey, label: string, width = 160, inputMode?: 'numeric') => (
    <TextField
      size="small"
      name={key}
      label={label}
      value={form[key]}
      error={errors[key] === true}
      helperText={errors[key] === true ? t('validation.notValid') : undefined}
      onChange={(event) => set(key)(event.target.value)}
      sx={{ width }}
      slotProps={{ htmlInput: { inputMode } }}
    />
  );

  return (
    <Paper
      component="form"
      variant="outlined"
      onSubmit={submit}
      aria-label={t('alerts.filters.title')}
      sx={{ p: 2, mb: 2, display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start' }}
    >
      <DeviceAndRangeFields form={form} errors={errors} set={set} />
      <TextField
        select
        size="small"
        label={t('alerts.filters.severity')}
        value={form.severity}
        onChange={(event) => set('severity')(event.target.value)}
        sx={{ width: 150 }}
      >
        <MenuItem value="">{t('alerts.filters.anySeverity')}</MenuItem>
        {SEVERITIES.map((s) => (
          <MenuItem key={s} value={s}>
            {t('alerts.filters.severityAtLeast', { severity: s })}
          </MenuItem>
        ))}
      </TextField>
      {text('signature', t('alerts.filters.signature'), 220)}
      {text('src_ip', t('alerts.filters.srcIp'), 170)}
      {text('src_port', t('alerts.filters.srcPort'), 130, 'numeric')}
      {text('dest_ip', t('alerts.filters.destIp'), 190)}
      {text('dest_port', t('alerts.filters.destPort'), 170, 'numeric')}
      <TextField
        select
        size="small"
        label={t('alerts.filters.proto')}
        value={form.proto}
        onChange={(event) => set('proto')(event.target.value)}
        sx={{ width: 130 }}
      >
        <MenuItem value="">{t('alerts.filters.anyProto')}</MenuItem>
        {PROTOCOLS.map((p) => (
          <MenuItem key={p} value={p}>
            {p}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('alerts.filters.acknowledged')}
        value={form.acknowledged}
        onChange={(event) => set('acknowledged')(event.target.value as FilterForm['acknowledged'])}
        sx={{ width: 160 }}
      >
        <MenuItem value="">{t('alerts.filters.anyState')}</MenuItem>
        <MenuItem value="false">{t('alerts.filters.unacknowledged')}</MenuItem>
        <MenuItem value="true">{t('alerts.filters.acknowledgedOnly')}</MenuItem>
      </TextField>
      <TextField
        select
        size="small"
        label={t('alerts.filters.starred')}
        value={form.starred}
        onChange={(event) => set('starred')(event.target.value as FilterForm['starred'])}
        sx={{ width: 150 }}
      >
        <MenuItem value="">{t('alerts.filters.anyStar')}</MenuItem>
        <MenuItem value="true">{t('alerts.filters.starredOnly')}</MenuItem>
        <MenuItem value="false">{t('alerts.filters.notStarred')}</MenuItem>
      </TextField>
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button type="submit" variant="contained" startIcon={<FilterListIcon />}>
          {t('alerts.filters.apply')}
        </Button>
        <Button type="button" onClick={clear}>
          {t('alerts.filters.clear')}
        </Button>
      </Box>
      <Typography
        variant="caption"
        color="text.secondary"
        id="alerts-search-help"
        sx={{ flexBasis: '100%' }}
      >
        {t('alerts.filters.searchHelp')}
      </Typography>
    </Paper>
  );
}

interface DeviceAndRangeFieldsProps {
  form: FilterForm;
  errors: FilterErrors;
  set: <K extends keyof FilterForm>(key: K) => (value: FilterForm[K]) => void;
}

/** Which device, and when: a preset range, or a custom from and to. */
function DeviceAndRangeFields({ form, errors, set }: DeviceAndRangeFieldsProps) {
  const { t } = useTranslation();
  const devices = useQuery(alertDeviceOptionsQueryOptions);
  return (
    <>
      <TextField
        select
        size="small"
        label={t('alerts.filters.device')}
        value={form.device}
        onChange={(event) => set('device')(event.target.value)}
        sx={{ width: 180 }}
      >
        <MenuItem value="">{t('alerts.filters.anyDevice')}</MenuItem>
        {(devices.data ?? []).map((d) => (
          <MenuItem key={d.id} value={String(d.id)}>
            {d.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('alerts.filters.range')}
        value={form.range}
        onChange={(event) => set('range')(event.target.value as RangeId)}
        sx={{ width: 160 }}
      >
        {RANGES.map((range) => (
          <MenuItem key={range} value={range}>
            {t(RANGE_LABELS[range])}
          </MenuItem>
        ))}
      </TextField>
      {form.range === 'custom' && (
        <>
          <TextField
            size="small"
            type="datetime-local"
            label={t('alerts.filters.from')}
            value={form.from}
            error={errors.from === true}
            onChange={(event) => set('from')(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            size="small"
            type="datetime-local"
            label={t('alerts.filters.to')}
            value={form.to}
            error={errors.to === true}
            onChange={(event) => set('to')(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </>
      )}
    </>
  );
}

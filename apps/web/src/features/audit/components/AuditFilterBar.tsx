import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { AuditAction, AuditObjectType } from '@palisade/contract';
import type { AuditFilters } from '../api/list-audit';

/** An ISO moment as a datetime-local input shows it (local time, to the minute). */
const toLocalInput = (iso: string | undefined) => {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
};
/** A datetime-local value as the ISO moment the API takes. */
const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : undefined);

/** The log's filters: applied together, kept in the page's URL by the caller. */
export function AuditFilterBar({
  filters,
  onApply,
}: {
  filters: AuditFilters;
  onApply: (filters: AuditFilters) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(() => ({
    ...filters,
    from: toLocalInput(filters.from),
    to: toLocalInput(filters.to),
  }));
  const set = (key: keyof AuditFilters) => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({
      ...draft,
      from: fromLocalInput(draft.from ?? ''),
      to: fromLocalInput(draft.to ?? ''),
    });
  };
  const clear = () => {
    setDraft({ from: '', to: '' });
    onApply({});
  };
  const field = { size: 'small' as const, sx: { minWidth: 160 } };
  return (
    <Stack
      component="form"
      role="search"
      aria-label={t('audit.filters.label')}
      onSubmit={submit}
      direction="row"
      sx={{ flexWrap: 'wrap', gap: 1.5, mb: 2, alignItems: 'center' }}
    >
      <TextField
        {...field}
        label={t('audit.filters.actor')}
        value={draft.actor ?? ''}
        onChange={set('actor')}
      />
      <TextField
        {...field}
        select
        label={t('audit.filters.action')}
        value={draft.action ?? ''}
        onChange={set('action')}
      >
        <MenuItem value="">{t('audit.filters.any')}</MenuItem>
        {AuditAction.options.map((action) => (
          <MenuItem key={action} value={action}>
            {action}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        {...field}
        select
        label={t('audit.filters.objectType')}
        value={draft.object_type ?? ''}
        onChange={set('object_type')}
      >
        <MenuItem value="">{t('audit.filters.any')}</MenuItem>
        {AuditObjectType.options.map((type) => (
          <MenuItem key={type} value={type}>
            {type}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        {...field}
        label={t('audit.filters.objectId')}
        value={draft.object_id ?? ''}
        onChange={set('object_id')}
      />
      <TextField
        {...field}
        type="datetime-local"
        label={t('audit.filters.from')}
        value={draft.from ?? ''}
        onChange={set('from')}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        {...field}
        type="datetime-local"
        label={t('audit.filters.to')}
        value={draft.to ?? ''}
        onChange={set('to')}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <Button type="submit" variant="contained">
        {t('audit.filters.apply')}
      </Button>
      <Button onClick={clear}>{t('audit.filters.clear')}</Button>
    </Stack>
  );
}

import type { AlertViewFilters } from '@palisade/contract';
import { EMPTY_FORM, FORM_FIELD, toFilters, type FilterForm } from './filters';

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as a datetime-local value in the reader's time zone (the form's from/to). */
function isoToLocal(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/**
 * The filter form as a saved view keeps it: a relative range stays relative ("last 24 hours"
 * whenever the view is applied), a custom one is kept as its times. Null when the form does
 * not validate.
 */
export function viewFiltersOf(form: FilterForm, now = Date.now()): AlertViewFilters | null {
  const relative = form.range !== 'any' && form.range !== 'custom' ? form.range : undefined;
  const { filters, errors } = toFilters(relative ? { ...form, range: 'any' } : form, now);
  if (Object.keys(errors).length > 0) return null;
  return relative ? { ...filters, range: relative } : filters;
}

/** A saved view's filters as the filter form (and so the page's URL). */
export function formOfView(filters: AlertViewFilters): FilterForm {
  const form: FilterForm = { ...EMPTY_FORM };
  for (const [key, value] of Object.entries(filters)) {
    const field = FORM_FIELD[key];
    if (field === undefined || value === undefined) continue;
    if (field === 'acknowledged' || field === 'starred') {
      if (value === 'true' || value === 'false') form[field] = value;
    } else if (field !== 'from' && field !== 'to' && field !== 'range') form[field] = String(value);
  }
  if (filters.range !== undefined) form.range = filters.range;
  else if (filters.since !== undefined || filters.until !== undefined) {
    form.range = 'custom';
    form.from = filters.since === undefined ? '' : isoToLocal(filters.since);
    form.to = filters.until === undefined ? '' : isoToLocal(filters.until);
  }
  return form;
}

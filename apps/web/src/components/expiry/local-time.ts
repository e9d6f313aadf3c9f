// An <input type="datetime-local"> speaks local wall-clock time without a zone; the API speaks
// ISO instants. These convert between the two in the browser's time zone.

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-12-01T09:30` for the input, from an ISO instant ('' for none). */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}`;
}

/** The ISO instant of the input's local time (null for an empty or unreadable input). */
export function fromLocalInput(value: string): string | null {
  if (value.trim() === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

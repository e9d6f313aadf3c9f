import { diffLines } from 'diff';

export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

export interface FieldDiff {
  field: string;
  lines: DiffLine[];
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : value === null || value === undefined
      ? {}
      : { value };

/** A value as the lines a person reads: text as it is, anything else as indented JSON. */
const text = (value: unknown): string =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);

/**
 * A record's before/after as one line diff per field: what was removed and what was added,
 * the unchanged lines of a long value (a ruleset's rules) kept for context.
 */
export function fieldDiffs(before: unknown, after: unknown): FieldDiff[] {
  const was = asRecord(before);
  const now = asRecord(after);
  const fields = [...new Set([...Object.keys(was), ...Object.keys(now)])];
  return fields.map((field) => {
    const lines = diffLines(
      field in was ? `${text(was[field])}\n` : '',
      field in now ? `${text(now[field])}\n` : '',
    ).flatMap((change) =>
      change.value
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => ({
          kind: change.added
            ? ('added' as const)
            : change.removed
              ? ('removed' as const)
              : ('same' as const),
          text: line,
        })),
    );
    return { field, lines };
  });
}

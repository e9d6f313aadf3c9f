// SQL of the console's search syntax (@palisade/search-syntax: words, "quoted phrases",
// -negation, OR): every term a bound ILIKE parameter (its wildcards escaped), never a user
// pattern run as a regular expression.
import type { SearchQuery } from '@palisade/search-syntax';

/** ILIKE pattern finding `text` anywhere, its wildcards taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The SQL condition of `query` on a text column (a fixed name from the caller's code, never
 * from the request); `bind` adds a parameter and answers its placeholder. Text that parses to
 * no term matches everything.
 */
export function searchCondition(
  column: string,
  query: SearchQuery,
  bind: (value: string) => string,
): string {
  if (query.length === 0) return 'TRUE';
  const clauses = query.map((clause) => {
    const parts = [
      ...clause.include.map((term) => `${column} ILIKE ${bind(containsPattern(term))}`),
      ...clause.exclude.map(
        (term) => `coalesce(${column}, '') NOT ILIKE ${bind(containsPattern(term))}`,
      ),
    ];
    return `(${parts.join(' AND ')})`;
  });
  return clauses.length === 1 ? (clauses[0] ?? 'TRUE') : `(${clauses.join(' OR ')})`;
}

/**
 * The condition of `query` over several columns (fixed names from the caller's code): a term is
 * found when any column holds it (or any of `extra`'s conditions on its bound pattern holds),
 * and excluded only when none does. Text that parses to no term matches everything.
 */
export function searchAnyCondition(
  columns: readonly string[],
  query: SearchQuery,
  bind: (value: string) => string,
  extra?: (pattern: string) => string[],
): string {
  if (query.length === 0) return 'TRUE';
  const anyHolds = (term: string) => {
    const pattern = bind(containsPattern(term));
    const tests = [
      ...columns.map((column) => `${column} ILIKE ${pattern}`),
      ...(extra?.(pattern) ?? []),
    ];
    return `(${tests.join(' OR ')})`;
  };
  const clauses = query.map((clause) => {
    const parts = [
      ...clause.include.map(anyHolds),
      ...clause.exclude.map((term) => `NOT coalesce(${anyHolds(term)}, false)`),
    ];
    return `(${parts.join(' AND ')})`;
  });
  return clauses.length === 1 ? (clauses[0] ?? 'TRUE') : `(${clauses.join(' OR ')})`;
}

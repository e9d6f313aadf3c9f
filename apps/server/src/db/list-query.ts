import type { ListQuery } from '@palisade/contract';
import { parseSearch } from '@palisade/search-syntax';
import { AppError } from '../lib/app-error.js';
import { searchAnyCondition } from '../lib/search-syntax.js';
import type { Queryable, SqlParam } from './client.js';

/**
 * What a list may be sorted and filtered by. Keys are the API's field names; values are
 * trusted SQL expressions. Nothing the caller sends reaches SQL except as a bound parameter.
 */
export interface ListSpec {
  sortable: Record<string, string>;
  /**
   * Sortable fields that may be empty: empty values come last in both directions (PostgreSQL
   * puts them first when descending). Only these: `NULLS LAST` on a descending sort keeps an
   * index from giving the order.
   */
  nullable?: string[];
  /** field:value terms compare with `=` (text compares case-insensitively), or build their own condition. */
  filterable: Record<string, FieldFilter>;
  /**
   * Free text (the console's search syntax, @palisade/search-syntax: words, "quoted phrases",
   * -negation, OR) is looked for in these columns: a term matches when any of them holds it.
   */
  searchable: string[];
  /** More conditions a free-text term may match (given the bound `%term%` pattern). */
  searchExtra?: (pattern: string) => string[];
  defaultSort: string;
}

export type FieldFilter =
  | { type: 'text' | 'int' | 'bool'; sql: string }
  /** The value anywhere in the text, case-insensitively (`msg:heartbleed`). */
  | { type: 'contains'; sql: string }
  /** One of the whole numbers given, `|`-separated (`id:4|17|9`). */
  | { type: 'ids'; sql: string }
  | {
      type: 'custom';
      cast: 'text' | 'int';
      condition: (param: string) => string;
      /** The only values taken (others are refused), when the field has a fixed set. */
      values?: readonly string[];
    };

export interface ListSql {
  where: string;
  orderBy: string;
  limit: number;
  offset: number;
  params: SqlParam[];
}

/**
 * Turns the paging query of every list into SQL fragments. `firstParam` is the number of
 * parameters the caller already bound (e.g. the organization id as $1).
 */
export function buildListSql(
  query: ListQuery,
  spec: ListSpec,
  firstParam: SqlParam[] = [],
): ListSql {
  const params: SqlParam[] = [...firstParam];
  const bind = (value: SqlParam) => {
    params.push(value);
    return `$${params.length}`;
  };

  const order = query.sortBy.map((field, index) => {
    // Own keys only: `constructor` or `__proto__` must not find Object.prototype's.
    const column = Object.hasOwn(spec.sortable, field) ? spec.sortable[field] : undefined;
    if (!column) {
      throw new AppError('validation_failed', `sortBy: cannot sort by '${field}'`, [
        {
          field: 'sortBy',
          msg: `unknown field '${field}'; one of ${Object.keys(spec.sortable).join(', ')}`,
        },
      ]);
    }
    const desc = query.sortDesc[index] === 'true' || query.sortDesc[index] === '1';
    if (!desc) return `${column} ASC`;
    return spec.nullable?.includes(field) ? `${column} DESC NULLS LAST` : `${column} DESC`;
  });
  order.push(spec.defaultSort);

  const conditions: string[] = [];
  for (const term of splitFilter(query.filter)) {
    const fieldTerm = /^([a-z_]+):(.*)$/.exec(term);
    if (fieldTerm) {
      const [, field = '', value = ''] = fieldTerm;
      const filter = Object.hasOwn(spec.filterable, field) ? spec.filterable[field] : undefined;
      if (!filter) throw unknownFilter(field, spec);
      conditions.push(filterCondition(filter, value.trim(), field, bind));
    } else if (spec.searchable.length > 0) {
      const search = searchAnyCondition(spec.searchable, parseSearch(term), bind, spec.searchExtra);
      if (search !== 'TRUE') conditions.push(search);
    }
  }

  return {
    where: conditions.length > 0 ? conditions.join(' AND ') : 'TRUE',
    orderBy: order.join(', '),
    limit: query.limit,
    offset: query.offset,
    params,
  };
}

/** Most whole numbers an `ids` filter takes. */
const MAX_IDS = 1000;

/** The filter's comma-separated terms (a comma inside a "quoted phrase" is the phrase's). */
function splitFilter(filter: string | undefined): string[] {
  if (!filter) return [];
  const terms: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of filter) {
    if (char === '"') quoted = !quoted;
    if (char === ',' && !quoted) {
      terms.push(current);
      current = '';
    } else current += char;
  }
  terms.push(current);
  return terms.map((term) => term.trim()).filter((term) => term !== '');
}

function filterCondition(
  filter: FieldFilter,
  raw: string,
  field: string,
  bind: (value: SqlParam) => string,
): string {
  switch (filter.type) {
    case 'custom': {
      if (filter.cast === 'int' && !/^-?\d{1,15}$/.test(raw))
        throw badFilterValue(field, 'must be a whole number');
      if (filter.values && !filter.values.includes(raw))
        throw badFilterValue(field, `must be one of ${filter.values.join(', ')}`);
      return filter.condition(bind(filter.cast === 'int' ? Number(raw) : raw));
    }
    case 'text':
      return `lower(${filter.sql}) = lower(${bind(raw)})`;
    case 'contains':
      return `${filter.sql} ILIKE ${bind(`%${escapeLike(raw)}%`)}`;
    case 'ids': {
      const ids = raw.split('|');
      if (ids.length > MAX_IDS || !ids.every((id) => /^\d{1,9}$/.test(id)))
        throw badFilterValue(field, `must be up to ${MAX_IDS} whole numbers joined by |`);
      return `${filter.sql} = ANY(${bind(ids.map(Number))}::int[])`;
    }
    case 'int': {
      if (!/^-?\d{1,15}$/.test(raw)) throw badFilterValue(field, 'must be a whole number');
      return `${filter.sql} = ${bind(Number(raw))}`;
    }
    case 'bool': {
      if (!['true', 'false'].includes(raw)) throw badFilterValue(field, 'must be true or false');
      return `${filter.sql} = ${bind(raw === 'true')}`;
    }
  }
}

const badFilterValue = (field: string, msg: string) =>
  new AppError('validation_failed', `filter: ${field} ${msg}`, [
    { field: 'filter', msg: `${field} ${msg}` },
  ]);

const unknownFilter = (field: string, spec: ListSpec) =>
  new AppError('validation_failed', `filter: cannot filter by '${field}'`, [
    {
      field: 'filter',
      msg: `unknown field '${field}'; one of ${Object.keys(spec.filterable).join(', ') || '(none)'}`,
    },
  ]);

export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export interface PagedSource {
  /** `SELECT … FROM …` of one row (joins included), without WHERE. */
  select: string;
  /** `FROM …` the count runs over (the joins the filters need). */
  countFrom: string;
  /** The organization scope, on $1: e.g. `u.org_id = $1`. */
  scope: string;
  /**
   * For wide rows of a large table: the row's key (e.g. `r.id`). The page is then chosen over
   * `countFrom`'s narrow rows, and only its own rows are read whole: a 5000-row page past
   * thousands of others sorts keys, not whole rows, and computes its columns 5000 times.
   */
  pageKey?: string;
}

/** One page of a list and its total, both under the same scope and filters. */
export async function pagedList<Row>(
  db: Queryable,
  source: PagedSource,
  sql: ListSql,
): Promise<{ rows: Row[]; total: number }> {
  const where = `${source.scope} AND ${sql.where}`;
  const n = sql.params.length;
  const cut = `ORDER BY ${sql.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`;
  const page = source.pageKey
    ? `WITH page AS MATERIALIZED (SELECT ${source.pageKey} AS key ${source.countFrom} WHERE ${where} ${cut})
       ${source.select} JOIN page ON page.key = ${source.pageKey} WHERE ${source.scope}
       ORDER BY ${sql.orderBy}`
    : `${source.select} WHERE ${where} ${cut}`;
  const [rows, count] = await Promise.all([
    db.query<Row>(page, [...sql.params, sql.limit, sql.offset]),
    db.query<{ total: number }>(
      `SELECT count(*)::int AS total ${source.countFrom} WHERE ${where}`,
      sql.params,
    ),
  ]);
  return { rows, total: count[0]?.total ?? 0 };
}

import { parseSearch } from '@palisade/search-syntax';
import { describe, expect, it } from 'vitest';
import { searchAnyCondition, searchCondition } from './search-syntax.js';

describe('search syntax in SQL', () => {
  const binder = () => {
    const params: string[] = [];
    const bind = (value: string) => {
      params.push(value);
      return `$${params.length}`;
    };
    return { params, bind };
  };

  it('builds bound, escaped conditions', () => {
    const { params, bind } = binder();
    expect(searchCondition('a.msg', parseSearch('"50%" -x OR y'), bind)).toBe(
      "((a.msg ILIKE $1 AND coalesce(a.msg, '') NOT ILIKE $2) OR (a.msg ILIKE $3))",
    );
    expect(params).toEqual(['%50\\%%', '%x%', '%y%']);
    expect(searchCondition('a.msg', [], bind)).toBe('TRUE');
  });

  it('finds a term in any column and excludes it only when none holds it', () => {
    const { params, bind } = binder();
    expect(searchAnyCondition(['r.msg', 'r.text'], parseSearch('a -b'), bind)).toBe(
      '((r.msg ILIKE $1 OR r.text ILIKE $1) AND NOT coalesce((r.msg ILIKE $2 OR r.text ILIKE $2), false))',
    );
    expect(params).toEqual(['%a%', '%b%']);
  });
});

import { describe, expect, it } from 'vitest';
import { initialTableState } from '../../../components/data-table/list-params';
import { RULES_PAGE_SIZE, rulesFilter } from './list-rules';

describe('rules list parameters (spec §7, §9)', () => {
  it('pages by 5000 with offset = (page − 1) × limit', () => {
    const third = { ...initialTableState(RULES_PAGE_SIZE), pageIndex: 2 };
    expect(rulesFilter(third)).toEqual({ limit: '5000', offset: '10000' });
  });

  it('joins field terms and the free-text search with commas', () => {
    const state = { ...initialTableState(RULES_PAGE_SIZE), search: 'heartbleed, tls' };
    expect(rulesFilter(state, ['group_id:7']).filter).toBe('group_id:7,heartbleed tls');
    expect(rulesFilter(initialTableState(), ['group_id:7']).filter).toBe('group_id:7');
    expect(rulesFilter(initialTableState()).filter).toBeUndefined();
  });

  it('takes field:value words of the search as terms of their own; other words stay a phrase', () => {
    const search = (text: string) =>
      rulesFilter({ ...initialTableState(RULES_PAGE_SIZE), search: text }).filter;
    expect(search('proto:tcp ET MALWARE group:emerging-dos')).toBe(
      'proto:tcp,group:emerging-dos,ET MALWARE',
    );
    expect(search('msg:heartbleed')).toBe('msg:heartbleed');
    // Not a field: a URL stays text.
    expect(search('http://evil.example')).toBe('http://evil.example');
  });
});

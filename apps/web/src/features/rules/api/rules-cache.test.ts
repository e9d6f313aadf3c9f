import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RuleDetail, RuleSummary } from '@palisade/contract';
import { RULES_CACHE_KEY, RulesCache, isQuotaError, type KeyValueStore } from './rules-cache';

const rule = (sid: number, extra: Partial<RuleSummary> = {}): RuleSummary => ({
  id: sid,
  gid: 1,
  sid,
  rev: 1,
  action: 'alert',
  proto: 'tcp',
  src_addr: 'any',
  src_port: 'any',
  direction: '->',
  dst_addr: 'any',
  dst_port: 'any',
  msg: `rule ${sid}`,
  classtype: null,
  priority: null,
  enabled: true,
  removed: false,
  source: 'a.rules',
  groups: ['a.rules'],
  updated_at: '2026-01-01T00:00:00.000Z',
  ...extra,
});

const detail = (sid: number): RuleDetail => ({
  ...rule(sid),
  text: `alert tcp any any -> any any (msg:"rule ${sid}"; sid:${sid};)`,
  metadata: [],
  references: [],
  flowbits: [],
});

const page = (sids: number[], currentPage = 1) => ({
  data: sids.map((sid) => rule(sid)),
  total: 100,
  currentPage,
  pageSize: 5000,
  filter: '',
});

/** A Storage that holds at most `capacity` characters and throws like a browser past it. */
function fakeStorage(capacity = Infinity): KeyValueStore & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      if (value.length > capacity) {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
      items.set(key, value);
    },
    removeItem: (key) => void items.delete(key),
  };
}

afterEach(() => vi.restoreAllMocks());

describe('rules cache keyed by sid (spec §3, §4)', () => {
  it('keeps the list state and caches the page by sid', () => {
    const cache = new RulesCache(fakeStorage());
    cache.storePage(page([10, 11, 12], 2));
    expect(cache.getList()).toMatchObject({ total: 100, currentPage: 2, pageSize: 5000 });
    expect(cache.get(11)?.msg).toBe('rule 11');
    expect(cache.size()).toBe(3);
  });

  it('a cache update keeps previously selected rules and drops the rest', () => {
    const cache = new RulesCache(fakeStorage());
    cache.storePage(page([1, 2, 3]));
    cache.setSelected([rule(2)], true);
    cache.storePage(page([7, 8], 2));
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(2)?.msg).toBe('rule 2');
    expect(cache.selectedRules().map((r) => r.sid)).toEqual([2]);
    expect(cache.size()).toBe(3);
  });

  it('keeps fetched full text while the rule is unchanged', () => {
    const cache = new RulesCache(fakeStorage());
    cache.storePage(page([5]));
    cache.putDetails([detail(5)]);
    cache.storePage(page([5]));
    expect(cache.get(5)?.text).toContain('sid:5;');
    cache.storePage({ ...page([]), data: [rule(5, { updated_at: '2026-02-01T00:00:00.000Z' })] });
    expect(cache.get(5)?.text).toBeUndefined();
  });

  it('is saved to browser storage and restored from it', () => {
    const store = fakeStorage();
    const first = new RulesCache(store);
    first.storePage(page([1, 2]));
    first.setSelected([rule(1)], true);
    expect(first.memoryOnly).toBe(false);
    expect(store.items.has(RULES_CACHE_KEY)).toBe(true);

    const second = new RulesCache(store);
    expect(second.getList().data.map((r) => r.sid)).toEqual([1, 2]);
    expect(second.isSelected(1)).toBe(true);
  });

  it('stays in memory only when the storage quota is exceeded', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = fakeStorage(2000);
    const cache = new RulesCache(store);
    cache.storePage(page([1]));
    expect(cache.memoryOnly).toBe(false);
    expect(store.items.has(RULES_CACHE_KEY)).toBe(true);

    const big = Array.from({ length: 500 }, (_, i) => i + 100);
    expect(() => cache.storePage(page(big))).not.toThrow();
    expect(cache.memoryOnly).toBe(true);
    // The stale copy is gone, and everything is still served from memory.
    expect(store.items.has(RULES_CACHE_KEY)).toBe(false);
    expect(cache.get(599)?.msg).toBe('rule 599');
    expect(cache.getList().data).toHaveLength(500);
    expect(warn).not.toHaveBeenCalled();

    cache.setSelected([rule(300)], true);
    cache.storePage(page([2]));
    expect(cache.memoryOnly).toBe(false);
    expect(cache.selectedRules().map((r) => r.sid)).toEqual([300]);
  });

  it('works with no storage at all and ignores an unreadable saved copy', () => {
    const none = new RulesCache(undefined);
    none.storePage(page([1]));
    expect(none.get(1)?.sid).toBe(1);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = fakeStorage();
    store.items.set(RULES_CACHE_KEY, '{not json');
    expect(new RulesCache(store).size()).toBe(0);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('coalesces saves when asked to, and forgets everything on reset', () => {
    vi.useFakeTimers();
    try {
      const store = fakeStorage();
      const setItem = vi.spyOn(store, 'setItem');
      const cache = new RulesCache(store, RULES_CACHE_KEY, 500);
      cache.storePage(page([1, 2, 3]));
      cache.setSelected([rule(1)], true);
      cache.setSelected([rule(2)], true);
      expect(setItem).not.toHaveBeenCalled();
      vi.advanceTimersByTime(500);
      expect(setItem).toHaveBeenCalledOnce();
      expect(new RulesCache(store).selectedRules().map((r) => r.sid)).toEqual([1, 2]);

      cache.reset();
      cache.flush();
      expect(cache.size()).toBe(0);
      expect(store.items.has(RULES_CACHE_KEY)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('recognises the quota errors of every browser', () => {
    expect(isQuotaError(new DOMException('x', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError({ name: 'NS_ERROR_DOM_QUOTA_REACHED' })).toBe(true);
    expect(isQuotaError({ code: 22 })).toBe(true);
    expect(isQuotaError(new Error('other'))).toBe(false);
  });
});

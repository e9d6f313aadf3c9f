import { describe, expect, it, vi } from 'vitest';
import { countIntlMade } from '../../testing/intl-count';
import { ALL_ROWS, initialTableState } from './list-params';
import { localPage } from './local-page';

const items = [
  { name: 'emerging-dos', count: 10 },
  { name: 'custom', count: 2 },
  { name: 'Decoder-events', count: 100 },
];
const texts = (item: { name: string }) => [item.name];

describe('localPage', () => {
  it('searches case-insensitively', () => {
    const page = localPage(items, { ...initialTableState(), search: 'DECODER' }, texts);
    expect(page.rows.map((i) => i.name)).toEqual(['Decoder-events']);
    expect(page.total).toBe(1);
  });

  it('sorts text naturally and numbers numerically, either way', () => {
    const byName = localPage(items, initialTableState(25, [{ id: 'name', desc: false }]), texts);
    expect(byName.rows.map((i) => i.name)).toEqual(['custom', 'Decoder-events', 'emerging-dos']);
    const byCount = localPage(items, initialTableState(25, [{ id: 'count', desc: true }]), texts);
    expect(byCount.rows.map((i) => i.count)).toEqual([100, 10, 2]);
  });

  it('puts "item 2" before "item 10", with a collator made at its first comparison', async () => {
    vi.resetModules(); // a fresh module: earlier tests have made its collator
    const fresh = (await import('./local-page')).localPage;
    const made = countIntlMade('Collator');
    const sorting = initialTableState(25, [{ id: 'name', desc: false }]);
    expect(fresh([], sorting, texts).rows).toEqual([]);
    expect(made()).toBe(0);
    const numbered = [{ name: 'item 10' }, { name: 'Item 2' }, { name: 'item 1' }];
    expect(fresh(numbered, sorting, texts).rows.map((i) => i.name)).toEqual([
      'item 1',
      'Item 2',
      'item 10',
    ]);
    fresh(numbered, sorting, texts);
    expect(made()).toBe(1);
  });

  it('pages, and All shows everything', () => {
    const second = localPage(items, { ...initialTableState(2), pageIndex: 1 }, texts);
    expect(second.rows).toHaveLength(1);
    expect(second.total).toBe(3);
    expect(localPage(items, initialTableState(ALL_ROWS), texts).rows).toHaveLength(3);
  });
});

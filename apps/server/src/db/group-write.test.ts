import { describe, expect, it } from 'vitest';
import { GroupWrite } from './group-write.js';

describe('GroupWrite', () => {
  it('writes the items added in one turn together, each caller answered after its write', async () => {
    const written: number[][] = [];
    const group = new GroupWrite<number, number>(async (items) => {
      written.push(items);
      return items.map((n) => n * 10);
    });
    expect(await Promise.all([1, 2, 3].map((n) => group.add(n)))).toEqual([10, 20, 30]);
    expect(written).toEqual([[1, 2, 3]]);
    await group.add(4);
    expect(written).toEqual([[1, 2, 3], [4]]);
    expect(group.writes).toBe(2);
  });

  it('tells every caller of a failed write, and writes the next items all the same', async () => {
    let fail = true;
    const written: string[][] = [];
    const group = new GroupWrite<string>(async (items) => {
      if (fail) throw new Error('connection lost');
      written.push(items);
      return [];
    });
    const lost = await Promise.allSettled([group.add('a'), group.add('b')]);
    expect(lost.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await group.add('a');
    expect(written).toEqual([['a']]);
  });

  it('takes the items that arrive during a write into the next one', async () => {
    const written: number[][] = [];
    let release: () => void = () => undefined;
    const group = new GroupWrite<number>(async (items) => {
      written.push(items);
      if (items[0] === 1) await new Promise<void>((resolve) => (release = resolve));
      return [];
    });
    const first = group.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const later = [group.add(2), group.add(3)];
    release();
    await Promise.all([first, ...later]);
    expect(written).toEqual([[1], [2, 3]]);
  });

  it('gathers for gatherMs the items that arrive in separate turns', async () => {
    const written: number[][] = [];
    const group = new GroupWrite<number>(
      async (items) => {
        written.push(items);
        return [];
      },
      { gatherMs: 30 },
    );
    const first = group.add(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all([first, group.add(2)]);
    expect(written).toEqual([[1, 2]]);
  });

  it('writes at most maxItems in one statement', async () => {
    const sizes: number[] = [];
    const group = new GroupWrite<number>(
      async (items) => {
        sizes.push(items.length);
        return [];
      },
      { maxItems: 2 },
    );
    await Promise.all([1, 2, 3, 4, 5].map((n) => group.add(n)));
    expect(sizes).toEqual([2, 2, 1]);
  });
});

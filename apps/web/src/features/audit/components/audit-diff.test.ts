import { describe, expect, it } from 'vitest';
import { fieldDiffs } from './audit-diff';

describe('a record as a readable diff', () => {
  it('shows each changed field, old lines removed and new ones added', () => {
    expect(fieldDiffs({ name: 'dmz' }, { name: 'DMZ' })).toEqual([
      {
        field: 'name',
        lines: [
          { kind: 'removed', text: 'dmz' },
          { kind: 'added', text: 'DMZ' },
        ],
      },
    ]);
  });

  it('keeps the unchanged lines of a long value for context', () => {
    const [rules] = fieldDiffs(
      { rules: [{ chain: 'input' }, { chain: 'output' }] },
      { rules: [{ chain: 'input' }] },
    );
    expect(rules?.lines.filter((l) => l.kind === 'same').map((l) => l.text)).toContain(
      '    "chain": "input"',
    );
    expect(rules?.lines.filter((l) => l.kind === 'removed').map((l) => l.text)).toContain(
      '    "chain": "output"',
    );
  });

  it('shows a creation as all added, a deletion as all removed', () => {
    expect(fieldDiffs(null, { name: 'new' })[0]?.lines).toEqual([{ kind: 'added', text: 'new' }]);
    expect(fieldDiffs({ name: 'old' }, null)[0]?.lines).toEqual([{ kind: 'removed', text: 'old' }]);
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { RuleChangeNote } from './RuleChangeNote';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const change = (update_id: number, kind: 'added' | 'changed') => ({
  id: update_id * 10,
  update_id,
  source_id: 3,
  kind,
  gid: 1,
  sid: 2_030_001,
  rule_id: 55,
  msg: 'ET MALWARE Beacon',
  file: 'emerging-malware',
  old_rev: kind === 'added' ? null : 3,
  new_rev: 4,
  old_text: null,
  new_text: null,
  at: '2026-11-25T10:00:09.000Z',
});

describe('the "changed in update" note', () => {
  it('links the newest change of the rule to its changelog entry, opened on that rule', async () => {
    const api = installFakeApi({
      'GET rulesources/rule-changes': {
        body: { data: [change(12, 'changed'), change(4, 'added')] },
      },
    });
    renderScreen(<RuleChangeNote gid={1} sid={2_030_001} />);
    const link = await screen.findByRole('link', { name: /^Changed in update 12 on / });
    expect(link.getAttribute('href')).toBe('/policies?tab=sources&source=3&update=12&sid=2030001');
    expect(screen.getByText('(and 1 earlier)')).toBeTruthy();
    expect(api.calls[0]?.search.get('sid')).toBe('2030001');
    expect(api.calls[0]?.search.get('gid')).toBe('1');
  });

  it('says nothing about a rule no update changed', async () => {
    const api = installFakeApi({ 'GET rulesources/rule-changes': { body: { data: [] } } });
    const { container } = renderScreen(<RuleChangeNote gid={1} sid={7} />);
    await waitFor(() => expect(api.calls).toHaveLength(1));
    expect(container.textContent).toBe('');
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { RuleChange } from '@palisade/contract';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { RuleSourcesTab } from './RuleSourcesTab';

const OLD =
  'alert http $HOME_NET any -> $EXTERNAL_NET any (msg:"ET MALWARE Beacon"; content:"/gate.php"; sid:2030001; rev:3;)';
const NEW =
  'alert http $HOME_NET any -> $EXTERNAL_NET any (msg:"ET MALWARE Beacon"; content:"/panel/gate.php"; sid:2030001; rev:4;)';

const change: RuleChange = {
  id: 1,
  update_id: 9,
  source_id: 1,
  kind: 'changed',
  gid: 1,
  sid: 2030001,
  rule_id: 55,
  msg: 'ET MALWARE Beacon',
  file: 'rules/emerging-malware.rules',
  old_rev: 3,
  new_rev: 4,
  old_text: OLD,
  new_text: NEW,
  at: '2026-11-25T10:00:09.000Z',
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('an update’s changelog (?tab=sources&source=1&update=9)', () => {
  it('lists the changes, filters them by kind, and opens a rule’s word diff', async () => {
    const api = installFakeApi({
      'GET rulesources/1': {
        body: { id: 1, name: 'ET Open', last_update: null },
      },
      'GET rulesources/1/updates/9': {
        body: {
          id: 9,
          source_id: 1,
          status: 'succeeded',
          phase: null,
          created_at: change.at,
          finished_at: change.at,
          added: 0,
          removed: 0,
          changed: 1,
          enabled: 0,
          disabled: 0,
          policies_bumped: 2,
          error: null,
          warning_count: 1,
          warnings: [{ file: 'rules/empty.rules', line: 0, column: 0, msg: 'no rules' }],
        },
      },
      'GET rulesources/1/updates/9/changes': (call) => ({
        body: call.search.get('filter')?.includes('kind:added')
          ? { data: [], recordsTotal: 0 }
          : { data: [change], recordsTotal: 1 },
      }),
    });
    renderScreen(<RuleSourcesTab canWrite />, '/policies?tab=sources&source=1&update=9');

    await screen.findByText('ET MALWARE Beacon');
    expect(screen.getByText('3 → 4')).toBeTruthy();
    expect(screen.getByText(/rules\/empty\.rules:0 no rules/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Changed (1)' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Diff of rule 2030001' }));
    const before = await screen.findByLabelText('Before');
    const after = screen.getByLabelText('After');
    // Only what differs is marked: the new path segment and the revision.
    const marked = (side: HTMLElement, tag: string) =>
      [...side.querySelectorAll(tag)].map((node) => node.textContent);
    expect(marked(before, 'del')).toEqual(['3']);
    expect(marked(after, 'ins')).toEqual(['panel/', '4']);
    expect(before.textContent).toContain(OLD);
    expect(after.textContent).toContain(NEW);

    fireEvent.click(screen.getByRole('button', { name: 'Added (0)' }));
    await screen.findByText('No changes.');
    await waitFor(() => expect(api.calls.at(-1)?.search.get('filter')).toBe('kind:added'));
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChangePreview, RuleDetail } from '@palisade/contract';
import { renderGuarded } from '../../../testing/render-guarded';
import { installFakeApi } from '../../../testing/render';
import { RuleEditorDialog } from './RuleEditorDialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TEXT = 'alert tcp any any -> any 80 (msg:"web probe"; sid:1000001; rev:1;)';

const RULE = {
  id: 12,
  gid: 1,
  sid: 1000001,
  rev: 1,
  text: TEXT,
} as unknown as RuleDetail;

const preview: ChangePreview = {
  deploy_mode: 'immediate',
  devices_reached: 3,
  config_changed: 0,
  policy_changed: 3,
  devices: [
    {
      id: 7,
      name: 'edge-7',
      policy: {
        from: { id: 2, name: 'DMZ', version: 4 },
        to: { id: 2, name: 'DMZ', version: 5 },
        added: 0,
        removed: 0,
        changed: 1,
        added_rules: [],
        removed_rules: [],
        changed_rules: [{ gid: 1, sid: 1000001, msg: 'web probe' }],
        thresholds_diff: null,
      },
      nftables_diff: null,
      routes_diff: null,
      variables: null,
    },
  ],
  devices_truncated: false,
  lockout: [],
};

describe('a rule edit held by policies on devices', () => {
  it('is reviewed before it is saved, and Back sends nothing', async () => {
    const api = installFakeApi({
      'PUT rules/12/preview': { body: preview },
      'PUT rules/12': { body: { ...RULE, rev: 2 } },
    });
    const onClose = vi.fn();
    renderGuarded(<RuleEditorDialog open rule={RULE} onClose={onClose} />);
    const editor = await screen.findByRole('dialog', { name: 'Update rule' });
    fireEvent.change(within(editor).getByLabelText(/^Rule/), {
      target: { value: TEXT.replace('rev:1', 'rev:2') },
    });
    fireEvent.click(within(editor).getByRole('button', { name: 'Save' }));

    const review = await screen.findByRole('dialog', { name: 'Review changes' });
    expect(within(review).getByTestId('change-review-reach').textContent).toBe(
      'Devices this change reaches: 3',
    );
    fireEvent.click(within(review).getByRole('button', { name: 'Back to editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Review changes' })).toBeNull(),
    );
    expect(api.calls.filter((c) => c.method === 'PUT' && c.path === 'rules/12')).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();

    // The editor is hidden from assistive technology until the review has finished closing.
    fireEvent.click(await within(editor).findByRole('button', { name: 'Save' }));
    const again = await screen.findByRole('dialog', { name: 'Review changes' });
    fireEvent.click(within(again).getByRole('button', { name: 'Save and send to 3' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const saves = api.calls.filter((c) => c.method === 'PUT' && c.path === 'rules/12');
    expect(saves.map((c) => c.body)).toEqual([{ text: TEXT.replace('rev:1', 'rev:2') }]);
  });
});

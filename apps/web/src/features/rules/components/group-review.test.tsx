// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChangePreview, RuleGroup, RuleSummary } from '@palisade/contract';
import { renderGuarded } from '../../../testing/render-guarded';
import { installFakeApi, type FakeCall } from '../../../testing/render';
import { AddToGroupButton } from './AddToGroupButton';
import { GroupDialog } from './GroupDialog';
import { GroupRulesDialog } from './GroupRulesDialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const GROUP: RuleGroup = {
  id: 5,
  name: 'web',
  description: '',
  kind: 'custom',
  source_id: null,
  rule_count: 1,
  enabled_count: 1,
  updated_at: '2026-11-20T10:00:00.000Z',
};

const RULE: RuleSummary = {
  id: 12,
  gid: 1,
  sid: 1000001,
  rev: 1,
  action: 'alert',
  proto: 'tcp',
  src_addr: 'any',
  src_port: 'any',
  direction: '->',
  dst_addr: 'any',
  dst_port: '80',
  msg: 'web probe',
  classtype: null,
  priority: 3,
  enabled: true,
  removed: false,
  source: 'custom',
  groups: ['web'],
  updated_at: '2026-11-20T10:00:00.000Z',
};

/** What the devices whose policies take the group would receive. */
const reaching = (count: number, change: 'added' | 'removed'): ChangePreview => ({
  deploy_mode: 'immediate',
  devices_reached: count,
  config_changed: 0,
  policy_changed: count,
  devices:
    count === 0
      ? []
      : [
          {
            id: 7,
            name: 'edge-7',
            policy: {
              from: { id: 2, name: 'DMZ', version: 4 },
              to: { id: 2, name: 'DMZ', version: 5 },
              added: change === 'added' ? 1 : 0,
              removed: change === 'removed' ? 1 : 0,
              changed: 0,
              added_rules: change === 'added' ? [{ gid: 1, sid: 1000001, msg: 'web probe' }] : [],
              removed_rules:
                change === 'removed' ? [{ gid: 1, sid: 1000001, msg: 'web probe' }] : [],
              changed_rules: [],
              thresholds_diff: null,
            },
            nftables_diff: null,
            routes_diff: null,
            variables: null,
          },
        ],
  devices_truncated: false,
  lockout: [],
});

const saves = (calls: FakeCall[]) =>
  calls.filter((call) => call.method === 'PUT' && call.path === 'groups/5');

describe('a group edit', () => {
  it('adding rules is reviewed first; Back adds nothing, Confirm sends', async () => {
    const api = installFakeApi({
      'PUT groups/5/preview': { body: reaching(2, 'added') },
      'PUT groups/5': { body: { ...GROUP, rule_count: 2 } },
    });
    const onDone = vi.fn();
    renderGuarded(<AddToGroupButton rules={[RULE]} groups={[GROUP]} onDone={onDone} />);
    const pickGroup = async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Add to group' }));
      fireEvent.click(await screen.findByRole('menuitem', { name: 'web' }));
    };

    await pickGroup();
    const review = await screen.findByRole('dialog', { name: 'Review changes' });
    expect(within(review).getByTestId('change-review-reach').textContent).toBe(
      'Devices this change reaches: 2',
    );
    expect(within(review).getByText('edge-7')).toBeTruthy();
    fireEvent.click(within(review).getByRole('button', { name: 'Back to editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Review changes' })).toBeNull(),
    );
    expect(saves(api.calls)).toEqual([]);
    expect(onDone).not.toHaveBeenCalled();
    const previewed = api.calls.find((call) => call.path === 'groups/5/preview');
    expect(previewed?.body).toEqual({ add_rule_ids: [12] });

    await pickGroup();
    const again = await screen.findByRole('dialog', { name: 'Review changes' });
    fireEvent.click(within(again).getByRole('button', { name: 'Save and send to 2' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(saves(api.calls).map((call) => call.body)).toEqual([{ add_rule_ids: [12] }]);
  });

  it('taking rules out is reviewed, and they stay picked after Back', async () => {
    const api = installFakeApi({
      'GET rules/': { body: { data: [RULE], recordsTotal: 1 } },
      'PUT groups/5/preview': { body: reaching(1, 'removed') },
      'PUT groups/5': { body: { ...GROUP, rule_count: 0 } },
    });
    renderGuarded(<GroupRulesDialog group={GROUP} canWrite onClose={() => undefined} />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select rule 1000001' }));
    const remove = screen.getByRole('button', { name: 'Remove from group' });
    fireEvent.click(remove);

    const review = await screen.findByRole('dialog', { name: 'Review changes' });
    expect(within(review).getByText('Rules removed (1)')).toBeTruthy();
    fireEvent.click(within(review).getByRole('button', { name: 'Back to editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Review changes' })).toBeNull(),
    );
    expect(saves(api.calls)).toEqual([]);
    expect(screen.getByText('Selected: 1')).toBeTruthy();

    fireEvent.click(remove);
    const again = await screen.findByRole('dialog', { name: 'Review changes' });
    fireEvent.click(within(again).getByRole('button', { name: 'Save and send to 1' }));
    await waitFor(() => expect(screen.getByText('Selected: 0')).toBeTruthy());
    expect(saves(api.calls).map((call) => call.body)).toEqual([{ remove_rule_ids: [12] }]);
  });

  it('a rename that reaches no device is saved without a review', async () => {
    const api = installFakeApi({
      'PUT groups/5/preview': { body: reaching(0, 'added') },
      'PUT groups/5': { body: { ...GROUP, name: 'web-2' } },
    });
    const onClose = vi.fn();
    renderGuarded(<GroupDialog open group={GROUP} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Rename group' });
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'web-2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByRole('dialog', { name: 'Review changes' })).toBeNull();
    const previewed = api.calls.find((call) => call.path === 'groups/5/preview');
    expect(previewed?.body).toEqual({ name: 'web-2', description: '' });
    expect(saves(api.calls).map((call) => call.body)).toEqual([{ name: 'web-2', description: '' }]);
  });
});

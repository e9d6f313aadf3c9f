// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChangePreview, VersionDiff, VersionList } from '@palisade/contract';
import { installFakeApi, renderScreen } from '../../testing/render';
import { VersionHistoryDialog } from './VersionHistoryDialog';

const entry = (version: number, rules: number) => ({
  version,
  created_at: `2026-11-2${version}T10:00:00.000Z`,
  actor_name: 'ops@example.com',
  cause: 'edit' as const,
  restored_from: null,
  sha256: `sha${version}`,
  summary: { rule_count: rules },
  current: version === 2,
});
const list: VersionList = { data: [entry(2, 3), entry(1, 2)], recordsTotal: 2, device_count: 3 };
const diff: VersionDiff = {
  kind: 'firewall_ruleset',
  a: 1,
  b: 2,
  firewall_rules: {
    added: [{ position: 3, text: 'input drop' }],
    removed: [],
    changed: [
      {
        old_position: 2,
        position: 2,
        old: 'input accept tcp dport 22',
        new: 'input accept tcp dport 2222',
        diff: [
          { value: 'input accept tcp dport ' },
          { value: '22', removed: true },
          { value: '2222', added: true },
        ],
      },
    ],
    policies: [{ chain: 'input', old: 'accept', new: 'drop' }],
    counts: { added: 1, removed: 0, changed: 1, unchanged: 1 },
  },
  nftables: {
    unified: '--- a\n+++ b\n@@ -1 +1 @@\n-tcp dport 22 accept\n+tcp dport 2222 accept\n',
    added: 1,
    removed: 1,
  },
};

/** The rollback's preview: one device whose nftables script moves, or none. */
const preview = (lockout: ChangePreview['lockout'] = []): ChangePreview => ({
  deploy_mode: 'immediate',
  devices_reached: 3,
  config_changed: 3,
  policy_changed: 0,
  devices: [
    {
      id: 3,
      name: 'router-1',
      policy: null,
      nftables_diff: {
        diff: '@@ -1 +1 @@\n-tcp dport 2222 accept\n+tcp dport 22 accept\n',
        truncated: false,
      },
      routes_diff: null,
      variables: null,
    },
  ],
  devices_truncated: false,
  lockout,
});
const rolledBack = {
  version: 3,
  restored_from: 1,
  changed: true,
  device_count: 3,
  render_differs: null,
  skipped: [],
  msg: '',
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the version history dialog', () => {
  it('compares the newest two versions and rolls back after the review', async () => {
    const api = installFakeApi({
      'GET fwruleset/4/versions': { body: list },
      'GET fwruleset/4/versions/1/diff/2': { body: diff },
      'POST fwruleset/4/rollback/preview': { body: preview() },
      'POST fwruleset/4/rollback': { body: rolledBack },
    });
    renderScreen(
      <VersionHistoryDialog
        open
        name="Edge"
        base="fwruleset/4"
        canRollBack
        invalidate={[]}
        onClose={() => undefined}
      />,
    );
    const table = await screen.findByRole('table', { name: 'Versions' });
    expect(within(table).getByText('3 rules')).toBeTruthy();
    expect(await screen.findByText('Changes from version 1 to version 2')).toBeTruthy();
    expect(
      await screen.findByText('Rules: 1 added, 0 removed, 1 changed, 1 unchanged'),
    ).toBeTruthy();
    expect(screen.getByText('Chain input policy: accept → drop')).toBeTruthy();
    expect(screen.getByText('2222').tagName).toBe('INS');
    expect(screen.getByText('+tcp dport 2222 accept')).toBeTruthy();

    // Only an older version can be rolled back to.
    const rollBack = within(table).getAllByRole('button', { name: 'Roll back to this version' });
    expect(rollBack).toHaveLength(1);
    fireEvent.click(rollBack[0] as HTMLElement);
    const confirm = await screen.findByRole('dialog', { name: 'Roll back to version 1?' });
    expect(confirm.textContent).toContain('become version 3');
    // What each device would receive, as a save's review shows it.
    expect(within(confirm).getByTestId('change-review-reach').textContent).toBe(
      'Devices this change reaches: 3',
    );
    expect(within(confirm).getByText('router-1')).toBeTruthy();
    expect(api.calls.find((call) => call.path === 'fwruleset/4/rollback/preview')?.body).toEqual({
      version: 1,
    });
    expect(api.calls.some((call) => call.path === 'fwruleset/4/rollback')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Roll back to this version' }));
    await waitFor(() => {
      const posted = api.calls.find((call) => call.path === 'fwruleset/4/rollback');
      expect(posted?.body).toEqual({ version: 1 });
    });
  });

  describe('a rollback that would cut a device off', () => {
    const REFUSAL =
      'router-1 would lose its connection to the server (10.0.0.5:8443/tcp): ' +
      'add an input rule accepting states established,related';
    const finding = {
      device_id: 3,
      device_name: 'router-1',
      message: REFUSAL,
      problems: [],
      overridden: false,
    };
    /** The preview names the device; a rollback is refused unless overridden. */
    const serve = () =>
      installFakeApi({
        'GET fwruleset/4/versions': { body: list },
        'GET fwruleset/4/versions/1/diff/2': { body: diff },
        'POST fwruleset/4/rollback/preview': { body: preview([finding]) },
        'POST fwruleset/4/rollback': (call) =>
          (call.body as { override_lockout?: boolean }).override_lockout === true
            ? { body: rolledBack }
            : { status: 422, body: { msg: REFUSAL, code: 'lockout', details: [] } },
      });
    const rollBackThroughReview = async () => {
      const table = await screen.findByRole('table', { name: 'Versions' });
      fireEvent.click(within(table).getByRole('button', { name: 'Roll back to this version' }));
      const review = await screen.findByRole('dialog', { name: 'Roll back to version 1?' });
      expect(within(review).getByTestId('change-review-lockout').textContent).toBe(REFUSAL);
      fireEvent.click(within(review).getByRole('button', { name: 'Roll back to this version' }));
      return screen.findByRole('dialog', { name: 'This change would cut a device off' });
    };

    it('shows the refusal; an Administrator applies it anyway', async () => {
      const api = serve();
      const onRolledBack = vi.fn();
      renderScreen(
        <VersionHistoryDialog
          open
          name="Edge"
          base="fwruleset/4"
          canRollBack
          canOverrideLockout
          invalidate={[]}
          onRolledBack={onRolledBack}
          onClose={() => undefined}
        />,
      );
      const refused = await rollBackThroughReview();
      expect(within(refused).getByTestId('lockout-message').textContent).toBe(REFUSAL);
      expect(onRolledBack).not.toHaveBeenCalled();
      fireEvent.click(within(refused).getByRole('button', { name: 'Apply anyway' }));
      await waitFor(() => expect(onRolledBack).toHaveBeenCalled());
      const posted = api.calls.filter((call) => call.path === 'fwruleset/4/rollback');
      expect(posted.map((call) => call.body)).toEqual([
        { version: 1 },
        { version: 1, override_lockout: true },
      ]);
    });

    it('offers no override to others', async () => {
      const api = serve();
      renderScreen(
        <VersionHistoryDialog
          open
          name="Edge"
          base="fwruleset/4"
          canRollBack
          invalidate={[]}
          onClose={() => undefined}
        />,
      );
      const refused = await rollBackThroughReview();
      expect(within(refused).queryByRole('button', { name: 'Apply anyway' })).toBeNull();
      expect(refused.textContent).toContain('Only an Administrator can apply it anyway');
      fireEvent.click(within(refused).getByRole('button', { name: 'Cancel' }));
      await waitFor(() =>
        expect(
          screen.queryByRole('dialog', { name: 'This change would cut a device off' }),
        ).toBeNull(),
      );
      expect(api.calls.filter((call) => call.path === 'fwruleset/4/rollback')).toHaveLength(1);
    });
  });
});

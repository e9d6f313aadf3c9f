// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChangePreview, User } from '@palisade/contract';
import { session, setUser } from '../../../lib/session';
import { installFakeApi, renderScreen } from '../../../testing/render';
import type { AlertDetailData } from '../api/get-alert';
import { AlertDrawer } from './AlertDrawer';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  session.set((s) => ({ ...s, user: null }));
});

const signedInAs = (id: number, role: User['role']) =>
  setUser({
    id,
    email: `user-${id}@example.com`,
    first_name: '',
    last_name: '',
    role,
    is_active: true,
    organization_id: 1,
    organization: 'Lab',
    created_at: '2026-11-01T00:00:00Z',
  });

const ALERT: AlertDetailData = {
  id: 41,
  device_id: 3,
  device: 'edge-1',
  time: '2026-11-28T07:00:00.123456Z',
  gid: 1,
  sid: 2_100_001,
  rev: 2,
  msg: 'ET SCAN probe',
  category: 'Attempted Information Leak',
  severity: 2,
  action: 'allowed',
  proto: 'TCP',
  app_proto: null,
  src_ip: '203.0.113.7',
  src_port: 40000,
  dest_ip: '10.9.9.9',
  dest_port: 80,
  acknowledged: false,
  starred: false,
  event: { event_type: 'alert' },
  rule: {
    id: 5,
    text: 'alert tcp any any -> any 80 (msg:"ET SCAN probe"; sid:2100001;)',
    source: 'scan',
    rev: 2,
  },
  fired_under: null,
  acknowledged_at: null,
  acknowledged_by: null,
  comments: [
    {
      id: 7,
      body: 'seen from the lab',
      author: 'ana@example.com',
      author_id: 12,
      created_at: '2026-11-28T07:05:00Z',
      edited_at: null,
    },
  ],
  policy_id: 9,
  policy_name: 'Edge',
  flow_id: null,
};

const PREVIEW: ChangePreview = {
  deploy_mode: 'immediate',
  devices_reached: 1,
  config_changed: 0,
  policy_changed: 1,
  devices: [],
  devices_truncated: false,
  lockout: [],
};

function open(api: Parameters<typeof installFakeApi>[0]) {
  const fake = installFakeApi({
    'GET alerts/41': { body: ALERT },
    'GET alerts/41/related': { body: { flow: [], host_pair: [], window: 15 } },
    ...api,
  });
  renderScreen(
    <AlertDrawer
      alertId={41}
      canWrite
      onPivot={() => undefined}
      onOpen={() => undefined}
      onClose={() => undefined}
    />,
  );
  return fake;
}

describe('the alert drawer', () => {
  it('says which policy version the alert fired under and what changed for its rule since', async () => {
    open({
      'GET alerts/41': {
        body: {
          ...ALERT,
          rule: { ...ALERT.rule, rev: 4 },
          fired_under: {
            policy_id: 9,
            policy_name: 'Edge',
            version: 12,
            current_version: 15,
            rule_change: 'disabled',
          },
        },
      },
    });
    const drawer = await screen.findByRole('dialog', { name: 'Alert' });
    expect((await within(drawer).findByTestId('alert-fired-under')).textContent).toBe(
      'Fired under Edge version 12; the policy is at version 15 now',
    );
    expect(within(drawer).getByTestId('alert-rule-change').textContent).toBe(
      'Since this alert, the policy no longer runs this rule (disabled or taken out).',
    );
    expect(within(drawer).getByTestId('alert-rev-change').textContent).toBe(
      'The engine ran revision 2; the rule is at revision 4 now.',
    );
  });

  it('says nothing changed when the alert fired under the version in force', async () => {
    open({
      'GET alerts/41': {
        body: {
          ...ALERT,
          fired_under: {
            policy_id: 9,
            policy_name: 'Edge',
            version: 15,
            current_version: 15,
            rule_change: null,
          },
        },
      },
    });
    const drawer = await screen.findByRole('dialog', { name: 'Alert' });
    expect((await within(drawer).findByTestId('alert-fired-under')).textContent).toBe(
      'Fired under Edge version 15',
    );
    expect(within(drawer).queryByTestId('alert-rule-change')).toBeNull();
    expect(within(drawer).queryByTestId('alert-rev-change')).toBeNull();
  });

  it("shows the analysts' comments with their author", async () => {
    open({});
    const drawer = await screen.findByRole('dialog', { name: 'Alert' });
    expect(await within(drawer).findByText('seen from the lab')).toBeTruthy();
    expect(within(drawer).getByText(/ana@example\.com/)).toBeTruthy();
  });

  it('lets the author correct a comment, marked edited, and delete it after asking', async () => {
    signedInAs(12, 'Operator');
    const edited = {
      ...ALERT.comments[0],
      body: 'seen from the lab, ticket 43',
      edited_at: '2026-11-28T08:00:00Z',
    };
    const api = open({
      'PUT alerts/comments/7': { body: { data: [edited] } },
      'DELETE alerts/comments/7': { body: { data: [] } },
    });
    const drawer = await screen.findByRole('dialog', { name: 'Alert' });
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Edit comment' }));
    const box = within(drawer).getByRole('textbox', { name: 'Comment' });
    expect((box as HTMLTextAreaElement).value).toBe('seen from the lab');
    fireEvent.change(box, { target: { value: '  seen from the lab, ticket 43 ' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
        { body: 'seen from the lab, ticket 43' },
      ]),
    );

    fireEvent.click(await within(drawer).findByRole('button', { name: 'Delete comment' }));
    const ask = await screen.findByRole('dialog', { name: 'Delete this comment?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    // Reachable again once the closing question no longer hides the drawer.
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Delete comment' }));
    const again = await screen.findByRole('dialog', { name: 'Delete this comment?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        'alerts/comments/7',
      ]),
    );
  });

  it("offers no edit or delete on someone else's comment, but does to an Administrator", async () => {
    signedInAs(13, 'Operator');
    open({});
    const drawer = await screen.findByRole('dialog', { name: 'Alert' });
    await within(drawer).findByText('seen from the lab');
    expect(within(drawer).queryByRole('button', { name: 'Edit comment' })).toBeNull();
    expect(within(drawer).queryByRole('button', { name: 'Delete comment' })).toBeNull();
    cleanup();
    signedInAs(14, 'Administrator');
    open({});
    const asAdmin = await screen.findByRole('dialog', { name: 'Alert' });
    expect(await within(asAdmin).findByRole('button', { name: 'Delete comment' })).toBeTruthy();
  });

  it('says so when no alerts are stored to judge a tuning by', async () => {
    open({
      'POST alerts/41/tune/preview': { body: PREVIEW },
      'POST policies/9/backtest': {
        body: {
          days: 7,
          since: '2026-11-21T07:00:00Z',
          removed: 0,
          total: 0,
          by_device: [],
          by_signature: [],
          unresolved_variables: [],
          policy_version: 4,
          removed_earlier: 0,
        },
      },
    });
    const drawer = await screen.findByRole('dialog', { name: 'Alert' });
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Suppress source' }));
    const review = await screen.findByRole('dialog', { name: 'Suppress this source?' });
    expect((await within(review).findByTestId('backtest-summary')).textContent).toBe(
      "No alerts are stored from this policy's devices over 7 days: there is nothing to judge the change by.",
    );
  });

  it('reviews a suppression first: Back sends nothing, confirm tunes the policy', async () => {
    const api = open({
      'POST alerts/41/tune/preview': { body: PREVIEW },
      'POST alerts/41/tune': {
        body: { policy_id: 9, policy_version: 4, msg: 'Source suppressed in policy Edge' },
      },
      'POST policies/9/backtest': (call) => ({
        body: {
          days: (call.body as { days: number }).days,
          since: '2026-11-21T07:00:00Z',
          removed: 30,
          total: 120,
          by_device: [{ device_id: 3, device: 'edge-1', removed: 30, total: 120 }],
          by_signature: [
            { gid: 1, sid: 2_100_001, msg: 'ET SCAN probe', removed: 30, total: 40, share: 0.75 },
          ],
          unresolved_variables: [],
          policy_version: 4,
          removed_earlier: 10,
        },
      }),
    });
    const drawer = await screen.findByRole('dialog', { name: 'Alert' });
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Suppress source' }));
    const review = await screen.findByRole('dialog', { name: 'Suppress this source?' });
    // The backtest of the suppression it would add, before anything is saved.
    expect((await within(review).findByTestId('backtest-summary')).textContent).toBe(
      "Would have removed 30 of 120 alerts (25%) stored from this policy's devices over 7 days",
    );
    expect(within(review).getByRole('row', { name: /ET SCAN probe/ }).textContent).toContain('75%');
    expect(within(review).getByTestId('backtest-earlier').textContent).toBe(
      '10 of them were raised under an earlier version of this policy (it is at version 4 now): a change made since may already remove some.',
    );
    const asked = api.calls.filter((c) => c.path === 'policies/9/backtest');
    expect(asked.at(-1)?.body).toEqual({
      days: 7,
      thresholds: [
        { kind: 'suppress', gid: 1, sid: 2_100_001, track: 'by_src', ip: '203.0.113.7' },
      ],
    });
    fireEvent.click(within(review).getByRole('button', { name: '30 days' }));
    await waitFor(() =>
      expect(within(review).getByTestId('backtest-summary').textContent).toMatch(/over 30 days$/),
    );
    expect(within(review).getByTestId('change-review-reach').textContent).toBe(
      'Devices this change reaches: 1',
    );
    fireEvent.click(within(review).getByRole('button', { name: 'Back to editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Suppress this source?' })).toBeNull(),
    );
    expect(api.calls.filter((c) => c.path === 'alerts/41/tune')).toEqual([]);

    fireEvent.click(within(drawer).getByRole('button', { name: 'Suppress source' }));
    const again = await screen.findByRole('dialog', { name: 'Suppress this source?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Suppress source' }));
    await waitFor(() =>
      expect(api.calls.filter((c) => c.path === 'alerts/41/tune').map((c) => c.body)).toEqual([
        { action: 'suppress_source' },
      ]),
    );
  });

  it('says why at once when the preview refuses the tuning, with no review', async () => {
    const api = open({
      'POST alerts/41/tune/preview': {
        status: 409,
        body: { msg: 'already', code: 'tune_rule_already_disabled', details: [] },
      },
    });
    const drawer = await screen.findByRole('dialog', { name: 'Alert' });
    const disable = await within(drawer).findByRole('button', { name: 'Disable rule' });
    fireEvent.click(disable);
    // The preview answered (the button is free again) and no review opened.
    await waitFor(() => expect(api.calls.map((c) => c.path)).toContain('alerts/41/tune/preview'));
    await waitFor(() => expect(disable.hasAttribute('disabled')).toBe(false));
    expect(screen.queryByRole('dialog', { name: 'Disable this rule?' })).toBeNull();
    expect(api.calls.filter((c) => c.path === 'alerts/41/tune')).toEqual([]);
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChangePreview, DeployMode, DeviceProfile } from '@palisade/contract';
import { notifications } from '../../../components/notifications/queue';
import { renderGuarded } from '../../../testing/render-guarded';
import { installFakeApi } from '../../../testing/render';
import { ProfileDialog } from './ProfileDialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PROFILE: DeviceProfile = {
  id: 4,
  name: 'Branch',
  description: '',
  variables: { HOME_NET: '10.1.0.0/16' },
  device_count: 1,
  updated_at: '2026-11-25T12:00:00Z',
};

const reaching = (count: number, deployMode: DeployMode = 'immediate'): ChangePreview => ({
  deploy_mode: deployMode,
  devices_reached: count,
  config_changed: count,
  policy_changed: 0,
  devices:
    count === 0
      ? []
      : [
          {
            id: 9,
            name: 'branch-1',
            policy: null,
            nftables_diff: null,
            routes_diff: null,
            variables: {
              added: [],
              removed: [],
              changed: [{ name: 'HOME_NET', old: '10.1.0.0/16', new: '10.2.0.0/16' }],
            },
          },
        ],
  devices_truncated: false,
  lockout: [],
});

async function editHomeNet() {
  const dialog = await screen.findByRole('dialog', { name: 'Edit Branch' });
  const value = within(dialog).getByDisplayValue('10.1.0.0/16');
  fireEvent.change(value, { target: { value: '10.2.0.0/16' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
  return dialog;
}

describe('a profile save that reaches devices', () => {
  it('is reviewed first: back keeps the edit and sends nothing, confirm saves', async () => {
    const api = installFakeApi({
      'PUT deviceconfigurationprofiles/4/preview': { body: reaching(1) },
      'PUT deviceconfigurationprofiles/4': { body: PROFILE },
    });
    const onClose = vi.fn();
    renderGuarded(<ProfileDialog profile={PROFILE} readOnly={false} onClose={onClose} />);
    const editor = await editHomeNet();
    const review = await screen.findByRole('dialog', { name: 'Review changes' });
    expect(within(review).getByTestId('change-review-reach').textContent).toBe(
      'Devices this change reaches: 1',
    );
    fireEvent.click(within(review).getByText('branch-1'));
    expect(within(review).getByText('~ HOME_NET: 10.1.0.0/16 → 10.2.0.0/16')).toBeTruthy();

    fireEvent.click(within(review).getByRole('button', { name: 'Back to editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Review changes' })).toBeNull(),
    );
    expect(within(editor).getByDisplayValue('10.2.0.0/16')).toBeTruthy();
    expect(api.calls.filter((c) => c.path === 'deviceconfigurationprofiles/4')).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.click(within(editor).getByRole('button', { name: 'Save' }));
    const again = await screen.findByRole('dialog', { name: 'Review changes' });
    fireEvent.click(within(again).getByRole('button', { name: 'Save and send to 1' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const saves = api.calls.filter((c) => c.path === 'deviceconfigurationprofiles/4');
    expect(saves).toHaveLength(1);
    expect(saves[0]?.body).toMatchObject({ variables: { HOME_NET: '10.2.0.0/16' } });
  });

  it('says a staged save is kept, not sent, until deployed', async () => {
    const api = installFakeApi({
      'PUT deviceconfigurationprofiles/4/preview': { body: reaching(1, 'staged') },
      'PUT deviceconfigurationprofiles/4': { body: PROFILE },
    });
    const onClose = vi.fn();
    renderGuarded(<ProfileDialog profile={PROFILE} readOnly={false} onClose={onClose} />);
    await editHomeNet();
    const review = await screen.findByRole('dialog', { name: 'Review changes' });
    expect(within(review).getByTestId('change-review-reach').textContent).toBe(
      'Saved, not sent: 1 devices will have this pending until deployed',
    );
    // The same per-device diff: here, what the next deploy would send.
    fireEvent.click(within(review).getByText('branch-1'));
    expect(within(review).getByText('~ HOME_NET: 10.1.0.0/16 → 10.2.0.0/16')).toBeTruthy();
    expect(within(review).queryByRole('button', { name: 'Save and send to 1' })).toBeNull();
    fireEvent.click(within(review).getByRole('button', { name: 'Save, deploy later (1 devices)' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls.filter((c) => c.path === 'deviceconfigurationprofiles/4')).toHaveLength(1);
  });

  it('saves at once, with only the save notice, when it reaches no device', async () => {
    const pushed = vi.spyOn(notifications, 'push');
    const api = installFakeApi({
      'PUT deviceconfigurationprofiles/4/preview': { body: reaching(0) },
      'PUT deviceconfigurationprofiles/4': { body: PROFILE },
    });
    const onClose = vi.fn();
    renderGuarded(<ProfileDialog profile={PROFILE} readOnly={false} onClose={onClose} />);
    await editHomeNet();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByRole('dialog', { name: 'Review changes' })).toBeNull();
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'PUT deviceconfigurationprofiles/4/preview',
      'PUT deviceconfigurationprofiles/4',
    ]);
    // One notice, as any save: a second would hold back the next notice in the queue.
    expect(pushed.mock.calls.map(([notice]) => notice.content)).toEqual([
      'profiles.notices.updating',
      'profiles.notices.updated',
    ]);
  });
});

describe('a profile save the lock-out check refuses', () => {
  const REFUSAL =
    'branch-1 would lose its connection to the server (10.0.0.5:8443/tcp): add an output rule ' +
    'accepting tcp to 10.0.0.5 port 8443';

  /** The preview, then the save: refused unless it carries the override. */
  const serveRefusal = () =>
    installFakeApi({
      'PUT deviceconfigurationprofiles/4/preview': { body: reaching(1) },
      'PUT deviceconfigurationprofiles/4': ({ body }) =>
        (body as { override_lockout?: boolean }).override_lockout === true
          ? { body: PROFILE }
          : { status: 422, body: { msg: REFUSAL, code: 'lockout', details: [] } },
    });

  async function saveReviewed() {
    await editHomeNet();
    const review = await screen.findByRole('dialog', { name: 'Review changes' });
    fireEvent.click(within(review).getByRole('button', { name: 'Save and send to 1' }));
    return screen.findByRole('dialog', { name: 'This change would cut a device off' });
  }

  it('names the missing rule; an Administrator applies it anyway, once', async () => {
    const api = serveRefusal();
    const onClose = vi.fn();
    renderGuarded(
      <ProfileDialog profile={PROFILE} readOnly={false} canOverrideLockout onClose={onClose} />,
    );
    const refusal = await saveReviewed();
    expect(within(refusal).getByTestId('lockout-message').textContent).toBe(REFUSAL);
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(within(refusal).getByRole('button', { name: 'Apply anyway' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const saves = api.calls.filter((c) => c.path === 'deviceconfigurationprofiles/4');
    expect(saves.map((c) => (c.body as { override_lockout?: boolean }).override_lockout)).toEqual([
      undefined,
      true,
    ]);
  });

  it('offers an Operator no override and keeps the edit', async () => {
    const api = serveRefusal();
    const onClose = vi.fn();
    renderGuarded(<ProfileDialog profile={PROFILE} readOnly={false} onClose={onClose} />);
    const refusal = await saveReviewed();
    expect(within(refusal).queryByRole('button', { name: 'Apply anyway' })).toBeNull();
    fireEvent.click(within(refusal).getByRole('button', { name: 'Cancel' }));
    const editor = await screen.findByRole('dialog', { name: 'Edit Branch' });
    expect(within(editor).getByDisplayValue('10.2.0.0/16')).toBeTruthy();
    expect(api.calls.filter((c) => c.path === 'deviceconfigurationprofiles/4')).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
  });
});

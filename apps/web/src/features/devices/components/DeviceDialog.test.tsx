// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChangePreview, Device } from '@palisade/contract';
import { expectCancelAsksOnlyWhenEdited, renderGuarded } from '../../../testing/render-guarded';
import { installFakeApi } from '../../../testing/render';
import { DeviceDialog } from './DeviceDialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TOOLS = {
  profiles: [],
  policies: [],
  firewalls: [],
  canWrite: true,
  canUpgrade: false,
  canOverrideLockout: false,
};

function Screen() {
  const [open, setOpen] = useState(false);
  const opener = <button onClick={() => setOpen(true)}>Open</button>;
  return open ? (
    <DeviceDialog
      device={null}
      tools={TOOLS}
      onClose={() => setOpen(false)}
      onSecret={() => undefined}
    />
  ) : (
    opener
  );
}

describe('the device dialog', () => {
  it('asks before typed changes are discarded, not for its generated password', async () => {
    renderGuarded(<Screen />);
    await expectCancelAsksOnlyWhenEdited({
      open: () => fireEvent.click(screen.getByRole('button', { name: 'Open' })),
      name: 'New device',
      field: /^Name/,
      value: 'sensor-berlin-1',
    });
  });
});

describe('a device save the lock-out check refuses', () => {
  const DEVICE = {
    id: 3,
    name: 'router-1',
    description: '',
    address: '',
    city: '',
    licensed: true,
    profile_id: null,
    policy_id: null,
    firewall_id: null,
  } as unknown as Device;
  const REFUSAL =
    'router-1 would lose its connection to the server (10.0.0.5:8443/tcp): add an input rule ' +
    'accepting states established,related';
  const PREVIEW: ChangePreview = {
    deploy_mode: 'immediate',
    devices_reached: 1,
    config_changed: 1,
    policy_changed: 0,
    devices: [],
    devices_truncated: false,
    lockout: [],
  };

  it('names the missing rule, and an Administrator assigns the ruleset anyway', async () => {
    const api = installFakeApi({
      'PUT devices/3/preview': { body: PREVIEW },
      'PUT devices/3': ({ body }) =>
        (body as { override_lockout?: boolean }).override_lockout === true
          ? { body: { ...DEVICE, firewall_id: 7 } }
          : { status: 422, body: { msg: REFUSAL, code: 'lockout', details: [] } },
    });
    const onClose = vi.fn();
    renderGuarded(
      <DeviceDialog
        device={DEVICE}
        tools={{ ...TOOLS, firewalls: [{ id: 7, name: 'Edge' }], canOverrideLockout: true }}
        onClose={onClose}
        onSecret={() => undefined}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit router-1' });
    const picker = within(dialog).getAllByRole('combobox').at(-1);
    if (picker === undefined) throw new Error('no firewall picker');
    fireEvent.mouseDown(picker);
    fireEvent.click(await screen.findByRole('option', { name: 'Edge' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const review = await screen.findByRole('dialog', { name: 'Review changes' });
    fireEvent.click(within(review).getByRole('button', { name: 'Save and send to 1' }));
    const refusal = await screen.findByRole('dialog', {
      name: 'This change would cut a device off',
    });
    expect(within(refusal).getByTestId('lockout-message').textContent).toBe(REFUSAL);
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(within(refusal).getByRole('button', { name: 'Apply anyway' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const saves = api.calls.filter((c) => c.method === 'PUT' && c.path === 'devices/3');
    expect(saves.map((c) => c.body)).toMatchObject([
      { firewall_id: 7 },
      { firewall_id: 7, override_lockout: true },
    ]);
  });
});

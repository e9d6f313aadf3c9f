// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { expectCancelAsksOnlyWhenEdited, renderGuarded } from '../../../testing/render-guarded';
import { DeviceDialog } from './DeviceDialog';

afterEach(cleanup);

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

describe('the device dialog', { timeout: 30_000 }, () => {
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

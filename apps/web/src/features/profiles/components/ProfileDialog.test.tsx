// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { expectCancelAsksOnlyWhenEdited, renderGuarded } from '../../../testing/render-guarded';
import { ProfileDialog } from './ProfileDialog';

afterEach(cleanup);

function Screen() {
  const [open, setOpen] = useState(false);
  const opener = <button onClick={() => setOpen(true)}>Open</button>;
  return open ? (
    <ProfileDialog profile={null} readOnly={false} onClose={() => setOpen(false)} />
  ) : (
    opener
  );
}

describe('the profile dialog', () => {
  it('asks before typed changes are discarded, and only then', async () => {
    renderGuarded(<Screen />);
    await expectCancelAsksOnlyWhenEdited({
      open: () => fireEvent.click(screen.getByRole('button', { name: 'Open' })),
      name: 'New profile',
      field: /^Name/,
      value: 'branch offices',
    });
  });
});

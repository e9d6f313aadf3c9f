// @vitest-environment jsdom
import { useState, type ReactNode } from 'react';
import { afterEach, describe, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { expectCancelAsksOnlyWhenEdited, renderGuarded } from '../../../testing/render-guarded';
import { GroupDialog } from './GroupDialog';
import { RuleEditorDialog } from './RuleEditorDialog';

afterEach(cleanup);

/** A page with an Open button, as the rules tab opens its dialogs. */
function Opener({ dialog }: { dialog: (open: boolean, close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {!open && <button onClick={() => setOpen(true)}>Open</button>}
      {dialog(open, () => setOpen(false))}
    </>
  );
}
const open = () => fireEvent.click(screen.getByRole('button', { name: 'Open' }));

describe('the rules dialogs', () => {
  it('ask before a typed rule is discarded, and only then', async () => {
    renderGuarded(
      <Opener dialog={(isOpen, close) => <RuleEditorDialog open={isOpen} onClose={close} />} />,
    );
    await expectCancelAsksOnlyWhenEdited({
      open,
      name: 'Add rule',
      field: /^Rule/,
      value: 'alert tcp any any -> any any (msg:"x"; sid:1;)',
    });
  });

  it('ask before a group name typed is discarded, and only then', async () => {
    renderGuarded(
      <Opener dialog={(isOpen, close) => <GroupDialog open={isOpen} onClose={close} />} />,
    );
    await expectCancelAsksOnlyWhenEdited({ open, name: 'New group', field: /^Name/, value: 'web' });
  });
});

// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { expectCancelAsksOnlyWhenEdited, renderGuarded } from '../../../testing/render-guarded';
import { PolicyEditorDialog } from './PolicyEditorDialog';
import type { PolicyTools } from './tools';

afterEach(cleanup);

const TOOLS: PolicyTools = {
  groups: [{ id: 1, name: 'emerging-scan' }],
  groupsLoading: false,
  users: undefined,
  RulePicker: () => null,
  fetchRules: () => Promise.resolve([]),
};

function Screen() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open</button>
      <PolicyEditorDialog
        open={open}
        tools={TOOLS}
        access={{ canWrite: true, isAdmin: false }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

describe('the policy editor', () => {
  it('asks before typed changes are discarded, and only then', async () => {
    renderGuarded(<Screen />);
    await expectCancelAsksOnlyWhenEdited({
      open: () => fireEvent.click(screen.getByRole('button', { name: 'Open' })),
      name: 'New policy',
      field: /^Name/,
      value: 'perimeter',
    });
  });
});

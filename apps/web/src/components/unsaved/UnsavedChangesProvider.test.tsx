// @vitest-environment jsdom
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderGuarded } from '../../testing/render-guarded';
import { useUnsavedChangesGuard } from './useUnsavedChangesGuard';

afterEach(cleanup);

/** The smallest editor: one field loaded with "edge", Cancel, and Save that keeps the edit. */
function NameEditor({ onClose }: { onClose: () => void }) {
  const { register, formState, reset, getValues } = useForm({ defaultValues: { name: 'edge' } });
  const guard = useUnsavedChangesGuard(formState.isDirty);
  return (
    <form>
      <label>
        Name
        <input {...register('name')} />
      </label>
      <button type="button" onClick={() => guard.askBefore(onClose)}>
        Cancel
      </button>
      <button type="button" onClick={() => reset(getValues())}>
        Save
      </button>
    </form>
  );
}

function Screen() {
  const [open, setOpen] = useState(true);
  return open ? <NameEditor onClose={() => setOpen(false)} /> : <p>Closed</p>;
}

const name = () => screen.getByLabelText<HTMLInputElement>('Name');
const question = () => screen.findByRole('dialog', { name: 'Discard changes?' });
const unloadIsHeld = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

// jsdom and MUI are slow on a loaded machine; nothing here waits on time itself.
describe('an editor with unsaved changes', () => {
  it('closes at once while nothing differs from what was loaded', () => {
    renderGuarded(<Screen />);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Closed')).toBeTruthy();
  });

  it('asks before closing; keeping the edits keeps them, discarding closes', async () => {
    renderGuarded(<Screen />);
    fireEvent.change(name(), { target: { value: 'edge-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(await question()).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(name().value).toBe('edge-2');

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(await question()).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByText('Closed')).toBeTruthy();
  });

  it('is clean again when the edit is undone, and after a save', async () => {
    renderGuarded(<Screen />);
    fireEvent.change(name(), { target: { value: 'edge-2' } });
    await waitFor(() => expect(unloadIsHeld()).toBe(true));
    fireEvent.change(name(), { target: { value: 'edge' } });
    await waitFor(() => expect(unloadIsHeld()).toBe(false));

    fireEvent.change(name(), { target: { value: 'edge-3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(unloadIsHeld()).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Closed')).toBeTruthy();
  });

  it('holds a navigation until answered, and goes when told to discard', async () => {
    const { router } = renderGuarded(<Screen />);
    fireEvent.change(name(), { target: { value: 'edge-2' } });
    await waitFor(() => expect(unloadIsHeld()).toBe(true));

    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    fireEvent.click(within(await question()).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/screen');
    expect(name().value).toBe('edge-2');

    // Another tab of the same screen is another address: it is held as well.
    void router.navigate('/screen?tab=other');
    fireEvent.click(within(await question()).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.search).toBe('');

    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    fireEvent.click(within(await question()).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByText('Another page')).toBeTruthy();
    expect(unloadIsHeld()).toBe(false);
  });

  it('lets a clean editor be left without a question', async () => {
    const { router } = renderGuarded(<Screen />);
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('Another page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});

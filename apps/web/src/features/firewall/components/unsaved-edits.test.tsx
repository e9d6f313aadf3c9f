// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FirewallRuleset } from '@palisade/contract';
import { renderGuarded } from '../../../testing/render-guarded';
import { NEW_RULE } from './RuleDialog';
import { NetworkEditor } from './NetworkEditor';
import { RulesetEditor } from './RulesetEditor';

afterEach(cleanup);

const RULESET: FirewallRuleset = {
  id: 7,
  name: 'Edge',
  description: '',
  policies: { input: 'drop', forward: 'drop', output: 'accept' },
  rules: [
    { ...NEW_RULE, destination_ports: '22', comment: 'ssh' },
    { ...NEW_RULE, destination_ports: '443', comment: 'web' },
  ],
  device_count: 0,
  updated_at: '2026-11-25T12:00:00Z',
};

const question = () => screen.findByRole('dialog', { name: 'Discard changes?' });
const unloadIsHeld = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};
const noQuestion = () =>
  waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard changes?' })).toBeNull());

// jsdom and MUI are slow on a loaded machine; nothing here waits on time itself.
describe('the ruleset editor', () => {
  it('asks on Esc once a rule changed, and closes at once when the change is undone', async () => {
    const onClose = vi.fn();
    renderGuarded(
      <RulesetEditor
        ruleset={RULESET}
        readOnly={false}
        canOverrideLockout={false}
        onClose={onClose}
      />,
    );
    const editor = screen.getByRole('dialog', { name: 'Ruleset Edge' });
    // A changed rule is a new row: find the switch again after each change.
    const enabled = () =>
      within(editor).getByRole<HTMLInputElement>('switch', { name: 'Rule 1 enabled' });
    fireEvent.click(enabled());
    await waitFor(() => expect(enabled().checked).toBe(false));

    fireEvent.keyDown(editor, { key: 'Escape' });
    const asked = await question();
    expect(within(asked).getByText(/rule order included/)).toBeTruthy();
    fireEvent.click(within(asked).getByRole('button', { name: 'Keep editing' }));
    await noQuestion();
    expect(onClose).not.toHaveBeenCalled();
    expect(enabled().checked).toBe(false);

    fireEvent.click(enabled());
    await waitFor(() => expect(enabled().checked).toBe(true));
    await waitFor(() => expect(unloadIsHeld()).toBe(false));
    fireEvent.click(within(editor).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('discards a removed rule only when told to', async () => {
    const onClose = vi.fn();
    renderGuarded(
      <RulesetEditor
        ruleset={RULESET}
        readOnly={false}
        canOverrideLockout={false}
        onClose={onClose}
      />,
    );
    const editor = screen.getByRole('dialog', { name: 'Ruleset Edge' });
    fireEvent.click(within(editor).getByRole('button', { name: 'Remove rule 2' }));
    fireEvent.click(within(editor).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(await question()).getByRole('button', { name: 'Discard' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('routes and NAT', () => {
  it('hold another tab until answered, and let it go when the route is removed again', async () => {
    const { router } = renderGuarded(
      <NetworkEditor
        deviceId={3}
        network={{ l3_mode: true, routes: [], source_nat: [], port_forwards: [] }}
        readOnly={false}
      />,
      '/firewall?tab=network',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add route' }));
    const dialog = await screen.findByRole('dialog', { name: 'New route' });
    fireEvent.change(within(dialog).getByLabelText(/Destination/), {
      target: { value: '10.20.0.0/16' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add route' }));
    await screen.findByRole('button', { name: 'Remove route 10.20.0.0/16' });

    void router.navigate('/firewall?tab=rulesets');
    const asked = await question();
    expect(within(asked).getByText(/routes, NAT and L3 mode/)).toBeTruthy();
    fireEvent.click(within(asked).getByRole('button', { name: 'Keep editing' }));
    await noQuestion();
    expect(router.state.location.search).toBe('?tab=network');
    expect(screen.getByRole('button', { name: 'Remove route 10.20.0.0/16' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remove route 10.20.0.0/16' }));
    await screen.findByText('No routes.');
    await router.navigate('/firewall?tab=rulesets');
    expect(router.state.location.search).toBe('?tab=rulesets');
  });

  it('asks before a half-typed route is dropped from its dialog', async () => {
    renderGuarded(
      <NetworkEditor
        deviceId={3}
        network={{ l3_mode: true, routes: [], source_nat: [], port_forwards: [] }}
        readOnly={false}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add route' }));
    const dialog = await screen.findByRole('dialog', { name: 'New route' });
    fireEvent.change(within(dialog).getByLabelText(/Gateway/), { target: { value: '10.0.0.1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(await question()).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New route' })).toBeNull());
  });
});

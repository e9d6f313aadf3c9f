// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import type { FirewallRuleset } from '@palisade/contract';
import { installFakeApi } from '../../../testing/render';
import { renderGuarded } from '../../../testing/render-guarded';
import { RulesetsTab } from './RulesetsTab';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const RULESET: FirewallRuleset = {
  id: 4,
  name: 'Edge',
  description: '',
  policies: { input: 'drop', forward: 'drop', output: 'accept' },
  rules: [],
  device_count: 0,
  updated_at: '2026-11-25T12:00:00Z',
};

describe('a link to a ruleset', () => {
  it('opens its editor, and leaves the address without the ruleset', async () => {
    installFakeApi({
      'GET fwruleset/': { body: { data: [RULESET], recordsTotal: 1 } },
      'GET fwruleset/4': { body: RULESET },
    });
    const { router } = renderGuarded(
      <RulesetsTab canWrite canOverrideLockout={false} />,
      '/firewall?tab=rulesets&ruleset=4',
    );
    expect(await screen.findByRole('dialog', { name: 'Ruleset Edge' })).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?tab=rulesets'));
  });
});

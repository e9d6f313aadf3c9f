// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { ExpiringList as ExpiringListBody } from '@palisade/contract';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { ExpiringList } from './ExpiringList';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const expiring: ExpiringListBody = {
  data: [
    {
      kind: 'override',
      object_type: 'policy',
      object_id: 3,
      object_name: 'DMZ',
      label: '2019401 disable',
      expires_at: '2026-11-30T10:00:00.000Z',
      reason: 'noisy during the migration',
    },
    {
      kind: 'firewall_rule',
      object_type: 'firewall_ruleset',
      object_id: 4,
      object_name: 'Edge',
      label: 'input accept tcp 22',
      expires_at: '2026-12-01T10:00:00.000Z',
      reason: null,
    },
  ],
};

describe('what expires in the next 7 days', () => {
  it('links each item to the editor holding it', async () => {
    installFakeApi({ 'GET expiring': { body: expiring } });
    renderScreen(<ExpiringList />);
    const items = await screen.findAllByTestId('expiring-item');
    expect(items).toHaveLength(2);
    const [override, rule] = items as [HTMLElement, HTMLElement];
    expect(within(override).getByRole('link').getAttribute('href')).toBe(
      '/policies?tab=policies&policy=3',
    );
    expect(within(rule).getByRole('link').getAttribute('href')).toBe(
      '/firewall?tab=rulesets&ruleset=4',
    );
  });

  it('keeps only the kinds asked for', async () => {
    installFakeApi({ 'GET expiring': { body: expiring } });
    renderScreen(<ExpiringList kinds={['firewall_rule']} />);
    await screen.findByText('Expiring in the next 7 days');
    const items = screen.getAllByTestId('expiring-item');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('input accept tcp 22'),
    ]);
  });
});

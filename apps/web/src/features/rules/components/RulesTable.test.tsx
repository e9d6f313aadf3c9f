// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RuleSummary } from '@palisade/contract';
import { formatDate } from '../../../lib/format-date';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { RulesTable } from './RulesTable';

const rule: RuleSummary = {
  id: 7,
  gid: 1,
  sid: 2010935,
  rev: 3,
  action: 'alert',
  proto: 'tcp',
  src_addr: '$HOME_NET',
  src_port: 'any',
  direction: '->',
  dst_addr: '$EXTERNAL_NET',
  dst_port: '445',
  msg: 'ET POLICY SMB outbound',
  classtype: 'policy-violation',
  priority: 2,
  enabled: true,
  removed: false,
  source: 'emerging-policy.rules',
  groups: ['policy'],
  updated_at: '2025-03-07T09:05:07Z',
};

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const headers = () =>
  // The open Columns menu hides the page from the accessibility tree; the headers are still there.
  screen
    .getAllByRole('columnheader', { hidden: true })
    .map((cell) => cell.textContent?.trim() ?? '');

function renderRules() {
  return renderScreen(<RulesTable label="Rules" onShowText={() => undefined} />);
}

describe('the rules table', () => {
  it('offers source, destination, priority and update time as optional columns, kept', async () => {
    const api = installFakeApi({
      'GET rules/': { body: { data: [rule], recordsTotal: 1 } },
    });
    renderRules();
    await screen.findByText('ET POLICY SMB outbound');
    expect(headers()).not.toContain('Source address');
    expect(headers()).not.toContain('Priority');

    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const menu = await screen.findByRole('menu');
    for (const name of ['Source address', 'Destination address', 'Priority', 'Updated']) {
      const item = within(menu).getByRole('menuitemcheckbox', { name });
      expect(item.getAttribute('aria-checked')).toBe('false');
      fireEvent.click(item);
      expect(item.getAttribute('aria-checked')).toBe('true');
    }
    fireEvent.keyDown(menu, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    expect(headers()).toEqual(
      expect.arrayContaining(['Source address', 'Destination address', 'Priority', 'Updated']),
    );
    const source = screen.getByText('$HOME_NET any');
    expect(source.getAttribute('dir')).toBe('ltr');
    expect(screen.getByText('$EXTERNAL_NET 445')).toBeTruthy();
    expect(screen.getByText(formatDate(rule.updated_at, 'en'))).toBeTruthy();

    // Priority and update time sort on the server.
    fireEvent.click(screen.getByRole('button', { name: 'Priority' }));
    await waitFor(() =>
      expect(api.calls.some((call) => call.search.get('sortBy')?.includes('priority'))).toBe(true),
    );

    // The choice outlives the page.
    cleanup();
    renderRules();
    await screen.findByText('ET POLICY SMB outbound');
    expect(headers()).toEqual(expect.arrayContaining(['Source address', 'Priority', 'Updated']));

    // Hidden again, it goes.
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    fireEvent.click(
      within(await screen.findByRole('menu')).getByRole('menuitemcheckbox', { name: 'Priority' }),
    );
    expect(headers()).not.toContain('Priority');
  });
});

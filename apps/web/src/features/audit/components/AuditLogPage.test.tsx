// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { AuditRecord } from '@palisade/contract';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { AuditLogPage } from './AuditLogPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const record = (id: number, overrides: Partial<AuditRecord> = {}): AuditRecord => ({
  id,
  at: '2026-11-25T12:00:00Z',
  actor_kind: 'user',
  actor_id: 1,
  actor_name: 'ann@example.com',
  action: 'update',
  object_type: 'policy',
  object_id: '3',
  object_name: `DMZ ${id}`,
  before: { name: 'dmz' },
  after: { name: 'DMZ' },
  request_id: `req-${id}`,
  ...overrides,
});

describe('the audit log page', () => {
  it('asks with the filters of its URL, and for older records by keyset', async () => {
    const api = installFakeApi({
      'GET audit/': (call) =>
        call.search.get('before_id') === null
          ? { body: { data: [record(9), record(8)], next_before_id: 8 } }
          : { body: { data: [record(5)], next_before_id: null } },
    });
    renderScreen(<AuditLogPage />, '/audit?object_type=policy&object_id=3');
    expect(await screen.findByText(/DMZ 9/)).toBeTruthy();
    const first = api.calls[0]?.search;
    expect(first?.get('object_type')).toBe('policy');
    expect(first?.get('object_id')).toBe('3');

    fireEvent.click(screen.getByRole('button', { name: 'Load older records' }));
    expect(await screen.findByText(/DMZ 5/)).toBeTruthy();
    expect(api.calls.at(-1)?.search.get('before_id')).toBe('8');
    expect(screen.getAllByTestId('audit-row')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load older records' })).toBeNull();
  });

  it('opens a record to the old and new value of each changed field', async () => {
    installFakeApi({ 'GET audit/': { body: { data: [record(9)], next_before_id: null } } });
    renderScreen(<AuditLogPage />, '/audit');
    fireEvent.click(await screen.findByRole('button', { name: 'Show the change of record 9' }));
    const change = screen.getByTestId('audit-change');
    expect(within(change).getByText('name')).toBeTruthy();
    expect(change.querySelector('del')?.textContent).toBe('dmz');
    expect(change.querySelector('ins')?.textContent).toBe('DMZ');
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { BulkActionBar } from './BulkActionBar';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const FILTERS = { severity: 2, src_ip: '10.0.0.1' };

describe('the bulk action bar', () => {
  it('shows the server count of matching alerts before acknowledging them all', async () => {
    const api = installFakeApi({
      'POST alerts/bulk': (call) => {
        const body = call.body as { dry_run: boolean };
        return { body: { count: 1234, dry_run: body.dry_run, msg: '' } };
      },
    });
    renderScreen(<BulkActionBar filters={FILTERS} canWrite />);
    fireEvent.click(screen.getByRole('button', { name: 'Acknowledge all' }));

    // The question carries the count the dry run answered, for the same filters; nothing yet.
    expect(await screen.findByText('Acknowledge 1,234 matching alerts?')).toBeTruthy();
    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]?.body).toEqual({ filter: FILTERS, action: 'acknowledge', dry_run: true });

    fireEvent.click(screen.getByRole('button', { name: 'Acknowledge 1,234 matching alerts' }));
    await waitFor(() => expect(api.calls).toHaveLength(2));
    expect(api.calls[1]?.body).toEqual({ filter: FILTERS, action: 'acknowledge', dry_run: false });
    await waitFor(() =>
      expect(screen.queryByText('Acknowledge 1,234 matching alerts?')).toBeNull(),
    );
  });

  it('asks for the comment text, and will not confirm when nothing matches', async () => {
    let matching = 3;
    const api = installFakeApi({
      'POST alerts/bulk': (call) => ({
        body: { count: matching, dry_run: (call.body as { dry_run: boolean }).dry_run, msg: '' },
      }),
    });
    renderScreen(<BulkActionBar filters={FILTERS} canWrite />);
    fireEvent.click(screen.getByRole('button', { name: 'Comment on all' }));
    const confirm = await screen.findByRole('button', { name: 'Comment on 3 matching alerts' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Comment'), { target: { value: 'scanner, ticket 42' } });
    expect((confirm as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(confirm);
    await waitFor(() => expect(api.calls).toHaveLength(2));
    expect(api.calls[1]?.body).toMatchObject({ action: 'comment', comment: 'scanner, ticket 42' });

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    matching = 0;
    fireEvent.click(screen.getByRole('button', { name: 'Reopen all' }));
    expect(
      await screen.findByText('No alert matching the current filters would change.'),
    ).toBeTruthy();
    const reopen = screen.getByRole('button', { name: 'Reopen 0 matching alerts' });
    expect((reopen as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers a Viewer the export only, of the same filters', async () => {
    const api = installFakeApi({});
    renderScreen(<BulkActionBar filters={FILTERS} canWrite={false} />);
    expect(screen.queryByRole('button', { name: 'Acknowledge all' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(api.calls).toHaveLength(1));
    expect(api.calls[0]?.path).toBe('alerts/export');
    expect(Object.fromEntries(api.calls[0]?.search ?? [])).toEqual({
      severity: '2',
      src_ip: '10.0.0.1',
      format: 'csv',
    });
  });
});

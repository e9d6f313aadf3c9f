// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AlertView } from '@palisade/contract';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { EMPTY_FORM } from '../filters';
import { SavedViewsMenu } from './SavedViewsMenu';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const view = (fields: Partial<AlertView> & Pick<AlertView, 'id' | 'name'>): AlertView => ({
  filters: {},
  shared: false,
  owner: 'me@example.com',
  can_edit: true,
  updated_at: '2026-05-01T10:00:00.000Z',
  ...fields,
});
const MINE = view({ id: 1, name: 'My high severity', filters: { severity: 1, range: '24h' } });
const TEAM = view({
  id: 2,
  name: 'Team scanners',
  filters: { src_ip: '203.0.113.7', starred: 'true' },
  shared: true,
  owner: 'lead@example.com',
  can_edit: false,
});
const FORM = { ...EMPTY_FORM, severity: '2', range: '7d' as const, not_proto: 'UDP' };

function fakeViews() {
  let views = [MINE, TEAM];
  const api = installFakeApi({
    'GET alertviews/': () => ({ body: { data: views, recordsTotal: views.length } }),
    'POST alertviews/': (call) => ({
      status: 201,
      body: view({ id: 3, ...(call.body as { name: string }) }),
    }),
    'PUT alertviews/1': (call) => ({ body: { ...MINE, ...(call.body as object) } }),
    'DELETE alertviews/1': () => {
      views = views.filter((v) => v.id !== 1);
      return { body: { msg: 'View deleted' } };
    },
  });
  return api;
}

const openMenu = async () => {
  fireEvent.click(screen.getByRole('button', { name: 'Views' }));
  return screen.findByRole('menu');
};

describe('the saved views menu', () => {
  it("applies one's own view or a shared one as the filter form", async () => {
    fakeViews();
    const onApply = vi.fn();
    renderScreen(<SavedViewsMenu form={FORM} canShare onApply={onApply} />);
    const menu = await openMenu();
    // Own views first; a shared one names its owner.
    const items = await within(menu).findAllByTestId('alert-view');
    expect(items.map((item) => item.textContent)).toEqual([
      'My high severity',
      'Team scannersShared by lead@example.com',
    ]);
    fireEvent.click(within(menu).getByText('Team scanners'));
    expect(onApply).toHaveBeenCalledWith({
      ...EMPTY_FORM,
      src_ip: '203.0.113.7',
      starred: 'true',
    });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });

  it('names the view whose filters are in force', async () => {
    fakeViews();
    renderScreen(
      <SavedViewsMenu
        form={{ ...EMPTY_FORM, severity: '1', range: '24h' }}
        canShare
        onApply={vi.fn()}
      />,
    );
    expect(await screen.findByRole('button', { name: 'View: My high severity' })).toBeTruthy();
  });

  it('saves the current filters, a relative range kept relative, shared when asked', async () => {
    const api = fakeViews();
    renderScreen(<SavedViewsMenu form={FORM} canShare onApply={vi.fn()} />);
    const menu = await openMenu();
    fireEvent.click(within(menu).getByText('Save view…'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Weekly' } });
    fireEvent.click(within(dialog).getByLabelText('Shared with the organization'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Weekly',
      filters: { severity: 2, range: '7d', not_proto: 'UDP' },
      shared: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lets a Viewer save a view of their own, without sharing', async () => {
    const api = fakeViews();
    renderScreen(<SavedViewsMenu form={FORM} canShare={false} onApply={vi.fn()} />);
    fireEvent.click(within(await openMenu()).getByText('Save view…'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText('Shared with the organization')).toBeNull();
    // The name is required.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Required')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Mine' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ shared: false });
  });

  it("renames and deletes one's own views only", async () => {
    const api = fakeViews();
    renderScreen(<SavedViewsMenu form={FORM} canShare onApply={vi.fn()} />);
    fireEvent.click(await within(await openMenu()).findByText('Manage my views…'));
    const dialog = await screen.findByRole('dialog', { name: 'My views' });
    expect(within(dialog).queryByText('Team scanners')).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename My high severity' }));
    const rename = await screen.findByRole('dialog', { name: 'Rename view' });
    const name = within(rename).getByLabelText('Name');
    expect((name as HTMLInputElement).value).toBe('My high severity');
    fireEvent.change(name, { target: { value: 'High' } });
    fireEvent.click(within(rename).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({
      name: 'High',
      shared: false,
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rename view' })).toBeNull());

    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete My high severity' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(api.calls.find((c) => c.method === 'DELETE')?.path).toBe('alertviews/1');
    await waitFor(() => expect(within(dialog).queryByText('My high severity')).toBeNull());
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { useNavigate } from 'react-router';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { User } from '@palisade/contract';
import { renderGuarded } from '../../../testing/render-guarded';
import { UserForm, type UserFormValues } from './UserForm';

afterEach(cleanup);

const USER: User = {
  id: 4,
  email: 'ops@example.com',
  first_name: 'Olga',
  last_name: 'Petrova',
  role: 'Operator',
  is_active: true,
  organization_id: 1,
  organization: 'Default',
  created_at: '2026-11-25T12:00:00Z',
};

/** The edit page's shape: saving leaves for another page. */
function EditPage() {
  const navigate = useNavigate();
  const onSubmit = async (_values: UserFormValues, saved: () => void) => {
    saved();
    await navigate('/elsewhere');
  };
  return <UserForm user={USER} requirePassword={false} submitLabel="Save" onSubmit={onSubmit} />;
}

const firstName = () => screen.getByLabelText<HTMLInputElement>(/^First name/);

describe('the user form', () => {
  it('holds leaving the page while edited, and is clean again when the edit is undone', async () => {
    const { router } = renderGuarded(<EditPage />, '/admin/users/edit/4');
    fireEvent.change(firstName(), { target: { value: 'Olya' } });
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const question = await screen.findByRole('dialog', { name: 'Discard changes?' });
    fireEvent.click(within(question).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/admin/users/edit/4');
    expect(firstName().value).toBe('Olya');

    fireEvent.change(firstName(), { target: { value: 'Olga' } });
    await waitFor(() => expect(firstName().value).toBe('Olga'));
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('Another page')).toBeTruthy();
  });

  it('leaves without a question once saved', async () => {
    const { router } = renderGuarded(<EditPage />, '/admin/users/edit/4');
    fireEvent.change(firstName(), { target: { value: 'Olya' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Another page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});

import type { ReactNode } from 'react';
import { Link, Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import {
  fireEvent,
  render,
  screen,
  waitFor,
  within,
  type RenderResult,
} from '@testing-library/react';
import { expect } from 'vitest';
import { UnsavedChangesProvider } from '../components/unsaved/UnsavedChangesProvider';
import { TestProviders } from './providers';

/**
 * Renders an editor as the signed-in console holds it: a data router (at `path`), the unsaved
 * changes guard, a query client and English texts. A link "Elsewhere" leads to /elsewhere.
 */
export function renderGuarded(
  ui: ReactNode,
  path = '/screen',
): RenderResult & { router: ReturnType<typeof createMemoryRouter> } {
  const router = createMemoryRouter(
    [
      {
        element: (
          <UnsavedChangesProvider>
            <Link to="/elsewhere">Elsewhere</Link>
            <Outlet />
          </UnsavedChangesProvider>
        ),
        children: [
          { path: '/elsewhere', element: <p>Another page</p> },
          { path: '*', element: ui },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <TestProviders>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return { ...result, router };
}

/**
 * What every editor must do with the dialog `name` that `open()` shows: Cancel closes it at
 * once while untouched; after typing `value` into `field`, Cancel asks, "Keep editing" keeps
 * the text, and Esc asks again, where "Discard" closes it.
 */
export async function expectCancelAsksOnlyWhenEdited(options: {
  open: () => void;
  name: string;
  field: string | RegExp;
  value: string;
}): Promise<void> {
  const { open, name, field, value } = options;
  const closed = () =>
    waitFor(() => expect(screen.queryByRole('dialog', { name })).toBeNull(), { timeout: 5000 });
  open();
  let dialog = await screen.findByRole('dialog', { name });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  await closed();

  open();
  dialog = await screen.findByRole('dialog', { name });
  fireEvent.change(within(dialog).getByLabelText(field), {
    target: { value },
  });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  const question = await screen.findByRole('dialog', { name: 'Discard changes?' });
  fireEvent.click(within(question).getByRole('button', { name: 'Keep editing' }));
  await waitFor(() =>
    expect(screen.queryByRole('dialog', { name: 'Discard changes?' })).toBeNull(),
  );
  const kept = within(dialog).getByLabelText<HTMLInputElement>(field);
  expect(kept.value).toBe(value);

  fireEvent.keyDown(dialog, { key: 'Escape' });
  const again = await screen.findByRole('dialog', { name: 'Discard changes?' });
  fireEvent.click(within(again).getByRole('button', { name: 'Discard' }));
  await closed();
}

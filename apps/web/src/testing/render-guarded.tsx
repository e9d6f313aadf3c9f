import type { ReactNode } from 'react';
import { Link, Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { render, type RenderResult } from '@testing-library/react';
import { UnsavedChangesProvider } from '../components/unsaved/UnsavedChangesProvider';
import en from '../locales/en.json';

const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
});

/**
 * Renders an editor as the signed-in console holds it: a data router (at `path`), the unsaved
 * changes guard, a query client and English texts. A link "Elsewhere" leads to /elsewhere.
 */
export function renderGuarded(
  ui: ReactNode,
  path = '/screen',
): RenderResult & { router: ReturnType<typeof createMemoryRouter> } {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
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
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return { ...result, router };
}

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { restoreSession } from '../features/auth/session-flow';
import { direction, i18next, initI18n } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { loadCustomStyles } from '../lib/theme';
import { loadRtlCache } from './emotion-cache';
import { Providers } from './providers';
import { createRouter } from './router';
import { watchSession } from './session-watch';

async function start(): Promise<void> {
  void loadCustomStyles();
  await initI18n();
  if (direction(i18next.language) === 'rtl') await loadRtlCache().catch(() => undefined);
  const router = createRouter();
  watchSession(queryClient, router);
  const root = document.getElementById('root');
  if (root === null) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
  await restoreSession(queryClient);
}

void start();

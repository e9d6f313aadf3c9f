import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { restoreSession } from '../features/auth/session-flow';
import { initI18n } from '../lib/i18n';
import { StorageKey, storage } from '../lib/storage';
import { loadCustomStyles, themeColours } from '../lib/theme';
import { appRoutes, preloadSignedIn } from './router';
import { watchSession } from './session-watch';
import './base.css';

async function start(): Promise<void> {
  void themeColours();
  void loadCustomStyles();
  await initI18n();
  watchSession();
  // With a stored token the signed-in layout and this page's screen are next: fetch them while
  // the session is checked.
  if (storage.get(StorageKey.token) !== null) void preloadSignedIn(window.location.pathname);
  const root = document.getElementById('root');
  if (root === null) throw new Error('#root is missing from index.html');
  const router = createBrowserRouter(appRoutes);
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  await restoreSession();
}

void start();

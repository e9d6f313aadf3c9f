import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { restoreSession } from '../features/auth/session-flow';
import { direction, initI18n } from '../lib/i18n';
import { pageStartLanguage } from '../lib/main-state';
import { StorageKey, storage } from '../lib/storage';
import { loadCustomStyles, themeColours } from '../lib/theme';
import { appRoutes, preloadSignedIn } from './router';
import { watchSession } from './session-watch';

/** The console: the language, the router and the session check (main.tsx runs it). */
export async function start(): Promise<void> {
  void themeColours();
  void loadCustomStyles();
  // With a stored token the signed-in layout and this page's screen are next: fetch them while
  // the language (ru and ar are a chunk each) and then the session are loaded and checked.
  const screensReady =
    storage.get(StorageKey.token) !== null
      ? preloadSignedIn(window.location.pathname, {
          rightToLeft: direction(pageStartLanguage()) === 'rtl',
        })
      : undefined;
  await initI18n();
  watchSession();
  const root = document.getElementById('root');
  if (root === null) throw new Error('#root is missing from index.html');
  const router = createBrowserRouter(appRoutes);
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  await restoreSession(screensReady);
}

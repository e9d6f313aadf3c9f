import type { User } from '@palisade/contract';
import { ApiError } from '../../lib/api-client';
import { StorageKey, storage } from '../../lib/storage';
import {
  logout,
  markLoggedIn,
  session,
  setAuthDisabled,
  setUser,
  storeToken,
} from '../../lib/session';
import { fetchConfig } from './api/config';
import { requestAccessToken } from './api/login';
import { fetchMe } from './api/me';

/** Successful login: token stored, profile loaded, state logged in (spec §4). */
export async function signIn(username: string, password: string): Promise<User> {
  try {
    const { access_token } = await requestAccessToken(username, password);
    storeToken(access_token);
    const user = await fetchMe();
    markLoggedIn(user);
    return user;
  } catch (error) {
    logout();
    throw error;
  }
}

/** Logout: clears the token; the app drops cached answers and shows the login screen. */
export function signOut(): void {
  logout();
}

async function readAuthDisabled(): Promise<boolean> {
  try {
    return (await fetchConfig()).auth_disabled;
  } catch (error) {
    console.warn('GET /config failed; assuming authentication is on', error);
    return false;
  }
}

/**
 * Start of the app: with auth disabled the user counts as logged in; otherwise a stored
 * token is used to fetch the profile, and removed (→ login) if that fails.
 *
 * `screensReady`: the chunks of the signed-in layout and of the screen the page opens on,
 * being fetched. The state turns logged in once they are in (or failed), so that the layout
 * and its screen render together: drawn alone, the layout would show a spinner in the
 * screen's place, and React reveals what a spinner stood in for no sooner than 300 ms after it
 * (measured under 4× CPU throttling: the Devices page's search field came 300 ms after the
 * chunk that draws it had run).
 */
export async function restoreSession(screensReady?: Promise<unknown>): Promise<void> {
  const hasToken = storage.get(StorageKey.token) !== null;
  // Both calls at once: the profile is needed either way when a token is stored.
  const profile = hasToken ? fetchMe() : null;
  profile?.catch(() => undefined);
  const authDisabled = await readAuthDisabled();
  setAuthDisabled(authDisabled);
  if (authDisabled) {
    await screensReady;
    markLoggedIn(null);
    (profile ?? fetchMe()).then(setUser, (error: unknown) =>
      console.warn('profile fetch failed', error),
    );
    return;
  }
  if (profile === null) {
    logout();
    return;
  }
  try {
    const user = await profile;
    await screensReady;
    markLoggedIn(user);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) {
      console.warn('profile fetch failed', error);
    }
    logout();
  }
}

/** The hourly check: revalidate the profile; a 401/403 logs out through the HTTP client. */
export async function revalidateSession(): Promise<void> {
  if (session.get().status !== 'loggedIn') return;
  try {
    setUser(await fetchMe());
  } catch (error) {
    console.warn('hourly session check failed', error);
  }
}

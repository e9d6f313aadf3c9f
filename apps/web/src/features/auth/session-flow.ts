import type { QueryClient } from '@tanstack/react-query';
import type { User } from '@palisade/contract';
import { ApiError } from '../../lib/api-client';
import { StorageKey, storage } from '../../lib/storage';
import { logout, markLoggedIn, session, setAuthDisabled, storeToken } from '../../lib/session';
import { configQueryOptions } from './api/config';
import { requestAccessToken } from './api/login';
import { meQueryOptions } from './api/me';

/** Successful login: token stored, profile loaded, state logged in (spec §4). */
export async function signIn(
  client: QueryClient,
  username: string,
  password: string,
): Promise<User> {
  try {
    const { access_token } = await requestAccessToken(username, password);
    storeToken(access_token);
    const user = await client.fetchQuery({ ...meQueryOptions, staleTime: 0 });
    markLoggedIn();
    return user;
  } catch (error) {
    signOut(client);
    throw error;
  }
}

/** Clears token, state and every cached answer. */
export function signOut(client: QueryClient): void {
  logout();
  client.removeQueries();
}

async function readAuthDisabled(client: QueryClient): Promise<boolean> {
  try {
    const config = await client.fetchQuery(configQueryOptions);
    return config.auth_disabled;
  } catch (error) {
    console.warn('GET /config failed; assuming authentication is on', error);
    return false;
  }
}

/**
 * Start of the app: with auth disabled the user counts as logged in; otherwise a stored
 * token is used to fetch the profile, and removed (→ login) if that fails.
 */
export async function restoreSession(client: QueryClient): Promise<void> {
  const authDisabled = await readAuthDisabled(client);
  setAuthDisabled(authDisabled);
  if (authDisabled) {
    markLoggedIn();
    client.prefetchQuery(meQueryOptions).catch(() => undefined);
    return;
  }
  if (storage.get(StorageKey.token) === null) {
    logout();
    return;
  }
  try {
    await client.fetchQuery({ ...meQueryOptions, staleTime: 0 });
    markLoggedIn();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401)
      console.warn('profile fetch failed', error);
    logout();
  }
}

/** The hourly check: revalidate the profile; a 401/403 logs out through the HTTP client. */
export async function revalidateSession(client: QueryClient): Promise<void> {
  if (session.get().status !== 'loggedIn') return;
  try {
    await client.fetchQuery({ ...meQueryOptions, staleTime: 0 });
  } catch (error) {
    console.warn('hourly session check failed', error);
  }
}

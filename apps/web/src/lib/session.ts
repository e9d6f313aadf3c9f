import type { User } from '@palisade/contract';
import { storage, StorageKey } from './storage';
import { createStore } from './store';

/** Spec §4: the login state has three values. */
export type SessionStatus = 'unknown' | 'loggedOut' | 'loggedIn';

export interface SessionState {
  status: SessionStatus;
  token: string | null;
  /** Server-side AUTH_DISABLED (spec §6 build flag): everyone counts as a logged-in administrator. */
  authDisabled: boolean;
  /** The signed-in user's profile (GET /users/me). */
  user: User | null;
}

export const session = createStore<SessionState>({
  status: 'unknown',
  token: storage.get(StorageKey.token),
  authDisabled: false,
  user: null,
});

export function storeToken(token: string): void {
  storage.set(StorageKey.token, token);
  session.set((s) => ({ ...s, token }));
}

export function markLoggedIn(user: User | null): void {
  session.set((s) => ({ ...s, status: 'loggedIn', user: user ?? s.user }));
}

export function setUser(user: User): void {
  session.set((s) => ({ ...s, user }));
}

export function setAuthDisabled(authDisabled: boolean): void {
  session.set((s) => ({ ...s, authDisabled }));
}

/** Clears the token; the app reacts by going to the login screen. */
export function logout(): void {
  storage.remove(StorageKey.token);
  session.set((s) => (s.authDisabled ? s : { ...s, token: null, status: 'loggedOut', user: null }));
}

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../lib/session';
import { restoreSession } from './session-flow';

const stored = vi.hoisted(() => ({ token: 'stored-token', meFails: false }));

vi.mock('../../lib/storage', () => ({
  StorageKey: { token: 'token' },
  storage: { get: () => stored.token, set: () => undefined, remove: () => undefined },
}));
vi.mock('./api/config', () => ({ fetchConfig: () => Promise.resolve({ auth_disabled: false }) }));
vi.mock('./api/me', async () => {
  const { ApiError } = await import('../../lib/api-client');
  return {
    fetchMe: () =>
      stored.meFails
        ? Promise.reject(new ApiError(401, 'Not authenticated', 'unauthorized'))
        : Promise.resolve({ id: 1, email: 'a@example.com', first_name: 'A', last_name: 'B' }),
  };
});

/** A promise and the function that fulfils it. */
function pending() {
  let fulfil: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (fulfil = resolve));
  return { promise, fulfil };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('restoreSession with the first screen still loading', () => {
  beforeEach(() => {
    stored.token = 'stored-token';
    stored.meFails = false;
    session.set({ status: 'unknown', token: 'stored-token', authDisabled: false, user: null });
  });

  it('logs in once the layout and screen chunks are in, so they render together', async () => {
    const screens = pending();
    const restored = restoreSession(screens.promise);
    await settle();
    // The profile has come; the spinner stays until the screen can be drawn with its layout.
    expect(session.get().status).toBe('unknown');
    screens.fulfil();
    await restored;
    expect(session.get().status).toBe('loggedIn');
    expect(session.get().user?.email).toBe('a@example.com');
  });

  it('goes to the login screen at once when the token is refused', async () => {
    stored.meFails = true;
    const screens = pending();
    await restoreSession(screens.promise);
    expect(session.get().status).toBe('loggedOut');
  });
});

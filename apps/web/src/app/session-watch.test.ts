import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logout, markLoggedIn, session } from '../lib/session';
import { SESSION_CHECK_MS, watchSession } from './session-watch';

const calls = vi.hoisted(() => ({ revalidate: 0, versions: 0, cacheCleared: 0 }));

vi.mock('../features/auth/session-flow', () => ({
  revalidateSession: () => {
    calls.revalidate += 1;
    return Promise.resolve();
  },
}));
vi.mock('../features/system/version-check', () => ({
  checkComponentVersions: () => {
    calls.versions += 1;
    return Promise.resolve();
  },
}));

vi.mock('../lib/query-client', () => ({
  queryClient: {
    removeQueries: () => {
      calls.cacheCleared += 1;
    },
  },
}));

describe('watchSession', () => {
  let stop: () => void;
  beforeEach(() => {
    vi.useFakeTimers();
    calls.revalidate = 0;
    calls.versions = 0;
    calls.cacheCleared = 0;
    session.set({ status: 'unknown', token: null, authDisabled: false, user: null });
    stop = watchSession();
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it('checks versions on login and revalidates session and versions every hour', async () => {
    markLoggedIn(null);
    expect(calls.versions).toBe(1);
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_MS - 1);
    expect(calls.revalidate).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.revalidate).toBe(1);
    expect(calls.versions).toBe(2);
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_MS);
    expect(calls.revalidate).toBe(2);
  });

  it('stops the hourly check and drops every cached answer on logout', async () => {
    markLoggedIn(null);
    logout();
    // The cache module is imported lazily; the test must not end while that import is pending.
    await vi.dynamicImportSettled();
    expect(calls.cacheCleared).toBe(1);
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_MS * 3);
    expect(calls.revalidate).toBe(0);
  });

  it('uses the spec interval', () => {
    expect(SESSION_CHECK_MS).toBe(3_600_000);
  });
});

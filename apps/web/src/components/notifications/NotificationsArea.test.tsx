// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { TestProviders } from '../../testing/providers';
import { NotificationsArea } from './NotificationsArea';
import { MIN_PROGRESS_MS, notifications } from './queue';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the notifications area', () => {
  it('starts a notice’s time only once the lazily loaded snackbar shows it', async () => {
    // No custom theme file in a test.
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('', { status: 404 })));
    const display = notifications.displayed.bind(notifications);
    let shownAt = 0;
    const displayed = vi.spyOn(notifications, 'displayed').mockImplementation((shown) => {
      shownAt = Date.now();
      display(shown);
    });
    render(
      <TestProviders>
        <NotificationsArea />
      </TestProviders>,
    );
    let id = 0;
    act(() => {
      id = notifications.push({ content: 'common.working', showProgress: true });
    });
    expect(displayed).not.toHaveBeenCalled();
    // The save is done before the snackbar code has loaded: the notice must still be held.
    act(() => notifications.remove(id));

    expect(await screen.findByTestId('notification')).toHaveProperty(
      'textContent',
      expect.stringContaining('Working'),
    );
    expect(displayed).toHaveBeenCalledWith(id);
    await vi.waitFor(() => expect(notifications.getSnapshot().open).toBe(false), {
      timeout: 5_000,
    });
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(MIN_PROGRESS_MS - 5);
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { StarToggle } from './StarToggle';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the star of an alert', () => {
  it('is a toggle that stars the alert', async () => {
    const api = installFakeApi({
      'PUT alerts/5/star': () => ({ body: { starred: true, msg: 'Alert starred' } }),
    });
    renderScreen(<StarToggle alertId={5} starred={false} canWrite />);
    const toggle = screen.getByRole('button', { name: 'Star alert 5' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    await waitFor(() => expect(api.calls).toHaveLength(1));
    expect(api.calls[0]).toMatchObject({ method: 'PUT', body: { starred: true } });
  });

  it('takes the star away', async () => {
    const api = installFakeApi({
      'PUT alerts/5/star': () => ({ body: { starred: false, msg: 'Star removed' } }),
    });
    renderScreen(<StarToggle alertId={5} starred canWrite />);
    const toggle = screen.getByRole('button', { name: 'Star alert 5' });
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(toggle.getAttribute('title')).toBe('Remove the star');
    fireEvent.click(toggle);
    await waitFor(() => expect(api.calls[0]?.body).toEqual({ starred: false }));
  });

  it('is only a mark for a Viewer', () => {
    installFakeApi({});
    renderScreen(<StarToggle alertId={5} starred canWrite={false} />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByTitle('Starred')).toBeTruthy();
    cleanup();
    renderScreen(<StarToggle alertId={5} starred={false} canWrite={false} />);
    expect(screen.queryByTitle('Starred')).toBeNull();
  });
});

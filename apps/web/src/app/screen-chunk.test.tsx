// @vitest-environment jsdom
import { Suspense, type ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { screenChunk } from './screen-chunk';

afterEach(cleanup);

const Devices = () => <h1>Devices</h1>;
const inSuspense = (Screen: ComponentType) => (
  <Suspense fallback={<p>Loading...</p>}>
    <Screen />
  </Suspense>
);

describe('screenChunk', () => {
  it('renders a screen whose chunk has loaded at once, without the fallback', async () => {
    const { Screen, preload } = screenChunk(() => Promise.resolve({ Component: Devices }));
    await preload();
    render(inSuspense(Screen));
    expect(screen.getByRole('heading', { name: 'Devices' })).toBeTruthy();
    expect(screen.queryByText('Loading...')).toBeNull();
  });

  it('shows the fallback while the chunk loads, then the screen', async () => {
    let arrive: (module: { Component: typeof Devices }) => void = () => undefined;
    const { Screen } = screenChunk(() => new Promise((resolve) => (arrive = resolve)));
    render(inSuspense(Screen));
    expect(screen.getByText('Loading...')).toBeTruthy();
    await act(async () => arrive({ Component: Devices }));
    expect(await screen.findByRole('heading', { name: 'Devices' })).toBeTruthy();
  });

  it('loads the chunk once however often it is asked for', async () => {
    let loads = 0;
    const { Screen, preload } = screenChunk(() => {
      loads += 1;
      return Promise.resolve({ Component: Devices });
    });
    await Promise.all([preload(), preload()]);
    render(inSuspense(Screen));
    expect(loads).toBe(1);
  });

  it('asks for a chunk again after it failed to load (a deploy replaced it)', async () => {
    let loads = 0;
    const { preload } = screenChunk(() => {
      loads += 1;
      return loads === 1
        ? Promise.reject(new Error('Failed to fetch dynamically imported module'))
        : Promise.resolve({ Component: Devices });
    });
    await expect(preload()).rejects.toThrow('dynamically imported');
    await expect(preload()).resolves.toBe(Devices);
    expect(loads).toBe(2);
  });
});

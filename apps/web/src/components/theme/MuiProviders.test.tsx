// @vitest-environment jsdom
import { useTheme } from '@mui/material/styles';
import { afterEach, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { themeColours } from '../../lib/theme';
import { MuiProviders } from './MuiProviders';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('starts a screen opened after theme.json came in its colours, styled once', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ primary: '#123456' }, { status: 200 })),
  );
  await themeColours();
  const seen: string[] = [];
  function Probe() {
    const main = useTheme().palette.primary.main;
    seen.push(main);
    return <p>{main}</p>;
  }
  render(
    <MuiProviders>
      <Probe />
    </MuiProviders>,
  );
  expect(await screen.findByText('#123456')).toBeTruthy();
  // Let the provider's own fetch of the colours answer: it must not draw everything again.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(seen).toEqual(['#123456']);
});

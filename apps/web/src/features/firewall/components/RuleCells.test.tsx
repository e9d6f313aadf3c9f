// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { CacheProvider } from '@emotion/react';
import { cleanup, render, screen } from '@testing-library/react';
import { loadRtlCache } from '../../../components/theme/emotion-cache';
import { TestProviders } from '../../../testing/providers';
import { Endpoint } from './RuleCells';

afterEach(cleanup);

describe('a firewall rule’s addresses in the Arabic page', () => {
  it('stay left to right under the right-to-left styles', async () => {
    // The right-to-left styles flip CSS `direction: ltr` to rtl; the dir attribute stays.
    const rtl = await loadRtlCache();
    render(
      <TestProviders>
        <CacheProvider value={rtl}>
          <div dir="rtl">
            <Endpoint addresses="!10.0.0.0/8, $LAN" ports="22,80" />
          </div>
        </CacheProvider>
      </TestProviders>,
    );
    const addresses = screen.getByText(/\$LAN/);
    const ports = screen.getByText(/22,80/);
    for (const element of [addresses, ports]) {
      expect(element.closest('[dir]')?.getAttribute('dir')).toBe('ltr');
      expect(getComputedStyle(element).direction).not.toBe('rtl');
    }
  });
});

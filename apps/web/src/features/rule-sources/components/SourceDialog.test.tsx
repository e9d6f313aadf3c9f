// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { installFakeApi } from '../../../testing/render';
import { expectCancelAsksOnlyWhenEdited, renderGuarded } from '../../../testing/render-guarded';
import { SourceList } from './SourceList';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('adding a source from the catalogue', () => {
  it('opens the picked entry in the form, whose URL may be edited before saving', async () => {
    const api = installFakeApi({
      'GET rulesources/': { body: { data: [], recordsTotal: 0 } },
      'GET rulesources/catalogue': (call) => ({
        body: {
          data: [
            {
              id: 'et/open',
              name: 'ET Open',
              vendor: 'Proofpoint',
              description: 'Emerging Threats open ruleset',
              license: 'MIT',
              url: `https://rules.emergingthreats.net/open/suricata-${call.search.get('suricata_version')}/emerging.rules.tar.gz`,
              checksum_url: null,
              requires_secret: false,
            },
          ],
        },
      }),
      'POST rulesources/': (call) => ({ status: 201, body: { id: 3, ...(call.body as object) } }),
    });
    renderGuarded(<SourceList canWrite />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add from catalogue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add ET Open' }));

    const form = await screen.findByRole('dialog', { name: 'Add rule source' });
    const url = within(form).getByLabelText('URL');
    expect((url as HTMLInputElement).value).toBe(
      'https://rules.emergingthreats.net/open/suricata-7.0/emerging.rules.tar.gz',
    );
    fireEvent.change(url, { target: { value: 'http://127.0.0.1:8123/emerging.rules.tar.gz' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'ET Open',
      url: 'http://127.0.0.1:8123/emerging.rules.tar.gz',
      checksum_url: null,
      catalogue_id: 'et/open',
      secret_code: null,
      headers: [],
      schedule: { kind: 'daily', time: '03:00' },
      enabled: true,
    });
  });

  it('says what is wrong with the URL and sends nothing', async () => {
    const api = installFakeApi({ 'GET rulesources/': { body: { data: [], recordsTotal: 0 } } });
    renderGuarded(<SourceList canWrite />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add custom source' }));
    const form = await screen.findByRole('dialog', { name: 'Add rule source' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Mirror' } });
    fireEvent.change(within(form).getByLabelText('URL'), { target: { value: 'ftp://mirror/x' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await within(form).findByText('must be an http:// or https:// URL');
    expect(api.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('asks before a source typed is discarded, and only then', async () => {
    installFakeApi({ 'GET rulesources/': { body: { data: [], recordsTotal: 0 } } });
    renderGuarded(<SourceList canWrite />);
    await screen.findByRole('button', { name: 'Add custom source' });
    await expectCancelAsksOnlyWhenEdited({
      open: () => fireEvent.click(screen.getByRole('button', { name: 'Add custom source' })),
      name: 'Add rule source',
      field: 'URL',
      value: 'https://mirror.example/rules.tar.gz',
    });
  });
});

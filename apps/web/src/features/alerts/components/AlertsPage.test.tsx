// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation, useNavigate } from 'react-router';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { AlertsPage } from './AlertsPage';

// The histogram draws with uPlot, which jsdom cannot host; it plays no part here.
vi.mock('./AlertsHistogram', () => ({ AlertsHistogram: () => null }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The page's URL, as the router holds it, and the browser's Back. */
function Where() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output data-testid="where">{location.search}</output>
      <button type="button" onClick={() => void navigate(-1)}>
        Back
      </button>
    </>
  );
}
const where = () => new URLSearchParams(screen.getByTestId('where').textContent ?? '');

let fake: ReturnType<typeof installFakeApi> | undefined;
const api = () => {
  if (fake === undefined) throw new Error('render first');
  return fake;
};
const renderAlerts = (path: string) => {
  fake = installFakeApi({
    'GET alerts/': {
      body: { data: [], recordsTotal: 0, recordsTotalIsExact: true, next_cursor: null },
    },
  });
  renderScreen(
    <>
      <AlertsPage />
      <Where />
    </>,
    path,
  );
};
const filterForm = () => screen.getByRole('form', { name: 'Alert filters' });

describe('the alert filters and the URL', () => {
  it('an Apply writes the URL and keeps the same form: a menu opened next stays open', async () => {
    renderAlerts('/alerts');
    const before = filterForm();
    fireEvent.change(within(before).getByLabelText('Signature (SID or text)'), {
      target: { value: '2001' },
    });
    fireEvent.click(within(before).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(where().get('signature')).toBe('2001'));
    // The router writes the URL in a transition; the page once took its own write for a Back
    // and remounted the form, closing whatever the user had opened in it meanwhile.
    expect(filterForm()).toBe(before);
    expect(within(before).getByLabelText<HTMLInputElement>('Signature (SID or text)').value).toBe(
      '2001',
    );
  });

  it('Back shows the filters of the URL before in the form, and applies them', async () => {
    renderAlerts('/alerts');
    const input = () =>
      within(filterForm()).getByLabelText<HTMLInputElement>('Signature (SID or text)');
    for (const sid of ['2001', '2002']) {
      fireEvent.change(input(), { target: { value: sid } });
      fireEvent.click(within(filterForm()).getByRole('button', { name: 'Apply' }));
      await waitFor(() => expect(where().get('signature')).toBe(sid));
    }
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(where().get('signature')).toBe('2001'));
    // The form follows the URL in the render after it changed.
    await waitFor(() => expect(input().value).toBe('2001'));
    await waitFor(() => expect(api().calls.at(-1)?.search.get('signature')).toBe('2001'));
  });
});

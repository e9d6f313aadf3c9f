// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { notifications } from '../../../components/notifications/queue';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { useTuneRule } from './useTuneRule';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function TuneButton() {
  const tune = useTuneRule();
  const location = useLocation();
  return (
    <>
      <button type="button" onClick={() => tune(2_100_001, 7)}>
        Tune
      </button>
      <output>{`${location.pathname}${location.search}`}</output>
    </>
  );
}

const page = (ids: number[]) => ({
  body: { data: ids.map((id) => ({ id })), recordsTotal: ids.length, recordsFiltered: ids.length },
});

describe('tuning a rule from analytics', () => {
  it("opens the rule's newest stored alert on the Alerts screen, over the window", async () => {
    const api = installFakeApi({ 'GET alerts/': page([41]) });
    renderScreen(<TuneButton />, '/policies?tab=analytics');
    fireEvent.click(screen.getByRole('button', { name: 'Tune' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        '/alerts?signature=2100001&range=7d&alert=41',
      ),
    );
    expect(api.calls[0]?.search.get('signature')).toBe('2100001');
  });

  it('says there is no alert left to tune from, and stays, when none is stored', async () => {
    installFakeApi({ 'GET alerts/': page([]) });
    const push = vi.spyOn(notifications, 'push');
    renderScreen(<TuneButton />, '/policies?tab=analytics');
    fireEvent.click(screen.getByRole('button', { name: 'Tune' }));
    await waitFor(() =>
      expect(push).toHaveBeenCalledWith({ content: 'ruleAnalytics.tuneNoAlert', color: 'info' }),
    );
    expect(screen.getByRole('status').textContent).toBe('/policies?tab=analytics');
  });
});

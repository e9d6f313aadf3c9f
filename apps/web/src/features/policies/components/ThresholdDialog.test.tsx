// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Threshold } from '@palisade/contract';
import { installFakeApi } from '../../../testing/render';
import { renderGuarded } from '../../../testing/render-guarded';
import { ThresholdDialog } from './ThresholdDialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the threshold dialog', () => {
  it('saves an end date (local time, sent as an instant) and a reason, and can clear them', async () => {
    const saved: Threshold[] = [];
    const value: Threshold = { kind: 'suppress', gid: 1, sid: 2019401 };
    const { unmount } = renderGuarded(
      <ThresholdDialog open value={value} onSave={(t) => saved.push(t)} onClose={() => {}} />,
    );
    fireEvent.change(screen.getByLabelText('Expires'), { target: { value: '2026-12-01T09:30' } });
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'INC-42' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({
      kind: 'suppress',
      sid: 2019401,
      expires_at: new Date(2026, 11, 1, 9, 30).toISOString(),
      reason: 'INC-42',
    });
    unmount();

    renderGuarded(
      <ThresholdDialog open value={saved[0]} onSave={(t) => saved.push(t)} onClose={() => {}} />,
    );
    expect(screen.getByLabelText<HTMLInputElement>('Expires').value).toBe('2026-12-01T09:30');
    fireEvent.change(screen.getByLabelText('Expires'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]?.expires_at ?? null).toBeNull();
    expect(saved[1]?.reason).toBeUndefined();
  });

  it("backtests a complete entry on the policy's stored alerts as it is typed", async () => {
    const api = installFakeApi({
      'POST policies/12/backtest': (call) => {
        const { thresholds } = call.body as { thresholds: Threshold[] };
        const limited = thresholds[0]?.count === 5;
        return {
          body: {
            days: 7,
            since: '2026-11-21T00:00:00Z',
            removed: limited ? 300 : 0,
            total: 400,
            by_device: [{ device_id: 1, device: 'edge-1', removed: limited ? 300 : 0, total: 400 }],
            by_signature: [],
            unresolved_variables: [],
          },
        };
      },
    });
    renderGuarded(
      <ThresholdDialog
        open
        policyId={12}
        value={{
          kind: 'threshold',
          gid: 1,
          sid: 2019401,
          type: 'limit',
          track: 'by_src',
          count: 1,
          seconds: 60,
        }}
        onSave={() => {}}
        onClose={() => {}}
      />,
    );
    expect((await screen.findByTestId('backtest-summary')).textContent).toMatch(
      /removed 0 of 400 /,
    );
    fireEvent.change(screen.getByLabelText('Count'), { target: { value: '' } });
    // Incomplete: nothing is asked while the count is missing.
    const before = api.calls.length;
    fireEvent.change(screen.getByLabelText('Count'), { target: { value: '5' } });
    await waitFor(() =>
      expect(screen.getByTestId('backtest-summary').textContent).toMatch(/removed 300 of 400 /),
    );
    expect(
      api.calls
        .slice(before)
        .map((c) => (c.body as { thresholds: Threshold[] }).thresholds[0]?.count),
    ).toEqual([5]);
  });
});

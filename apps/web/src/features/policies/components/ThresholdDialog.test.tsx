// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Threshold } from '@palisade/contract';
import { renderGuarded } from '../../../testing/render-guarded';
import { ThresholdDialog } from './ThresholdDialog';

afterEach(cleanup);

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
});

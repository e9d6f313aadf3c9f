import { describe, expect, it } from 'vitest';
import { MAX_BACKOFF_MS, backoffMs } from './sse';

describe('backoffMs', () => {
  it('doubles from the base and stops at the cap', () => {
    const mid = () => 0.5;
    expect(backoffMs(0, 1000, mid)).toBe(1000);
    expect(backoffMs(3, 1000, mid)).toBe(8000);
    expect(backoffMs(20, 1000, mid)).toBe(MAX_BACKOFF_MS);
  });
});

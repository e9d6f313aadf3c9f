import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * For a long loop of CPU work on the event loop (a policy's matchers over its rules): `due()`
 * says when `ms` have passed since the loop last gave way, and `pause()` gives way to other
 * requests and starts a new slice. Checking `due()` costs a clock read; `pause()` a turn.
 */
export function timeSlices(ms: number) {
  let start = performance.now();
  return {
    due: () => performance.now() - start > ms,
    async pause(): Promise<void> {
      await nextTurn();
      start = performance.now();
    },
  };
}

/** Slices of 2 ms: under contention a slice stretches, and /health must answer within 100 ms. */
export const SLICE_MS = 2;

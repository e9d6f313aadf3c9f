import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  GAP_MS,
  MIN_PROGRESS_MS,
  NotificationQueue,
  SNACKBAR_TIMEOUT_MS,
  withProgress,
  type Clock,
} from './queue';

/** A clock the test moves by hand. */
function manualClock() {
  let now = 0;
  let timers: { at: number; run: () => void; id: number }[] = [];
  let nextId = 1;
  const clock: Clock = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = nextId++;
      timers.push({ at: now + ms, run, id });
      return id;
    },
    clearTimeout: (handle) => {
      timers = timers.filter((t) => t.id !== handle);
    },
  };
  const advance = (ms: number) => {
    const target = now + ms;
    for (;;) {
      const due = timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      timers = timers.filter((t) => t !== due);
      now = due.at;
      due.run();
    }
    now = target;
  };
  return { clock, advance };
}

const shown = (queue: NotificationQueue) => {
  const { current, open } = queue.getSnapshot();
  return open ? (current?.content ?? null) : null;
};

describe('NotificationQueue', () => {
  it('shows one notice at a time, in order, with the 5000 ms timeout and a 500 ms gap', () => {
    const { clock, advance } = manualClock();
    const queue = new NotificationQueue(clock);
    queue.push({ content: 'first' });
    queue.push({ content: 'second' });
    expect(shown(queue)).toBe('first');
    advance(SNACKBAR_TIMEOUT_MS - 1);
    expect(shown(queue)).toBe('first');
    advance(1);
    expect(shown(queue)).toBeNull();
    expect(queue.getSnapshot().current?.content).toBe('first'); // hiding first
    advance(GAP_MS - 1);
    expect(shown(queue)).toBeNull();
    advance(1);
    expect(shown(queue)).toBe('second');
  });

  it('closes on the close button and waits 500 ms before the next', () => {
    const { clock, advance } = manualClock();
    const queue = new NotificationQueue(clock);
    queue.push({ content: 'a' });
    queue.push({ content: 'b' });
    queue.close();
    expect(shown(queue)).toBeNull();
    advance(GAP_MS);
    expect(shown(queue)).toBe('b');
  });

  it('holds a progress notice at least 500 ms and never times it out', () => {
    const { clock, advance } = manualClock();
    const queue = new NotificationQueue(clock);
    const id = queue.push({ content: 'saving', showProgress: true });
    advance(100);
    queue.remove(id);
    expect(shown(queue)).toBe('saving');
    advance(MIN_PROGRESS_MS - 101);
    expect(shown(queue)).toBe('saving');
    advance(1);
    expect(shown(queue)).toBeNull();

    const long = queue.push({ content: 'long', showProgress: true });
    advance(GAP_MS + 60_000);
    expect(shown(queue)).toBe('long');
    queue.remove(long);
    expect(shown(queue)).toBeNull();
  });

  it('drops a queued notice removed before it was shown', () => {
    const { clock, advance } = manualClock();
    const queue = new NotificationQueue(clock);
    queue.push({ content: 'a' });
    const b = queue.push({ content: 'b', showProgress: true });
    queue.push({ content: 'c' });
    queue.remove(b);
    queue.close();
    advance(GAP_MS);
    expect(shown(queue)).toBe('c');
  });

  it('defaults to the info colour', () => {
    const queue = new NotificationQueue(manualClock().clock);
    queue.push({ content: 'x' });
    expect(queue.getSnapshot().current?.color).toBe('info');
  });

  it('withProgress: progress, then success; on failure only the progress is removed', async () => {
    const { clock, advance } = manualClock();
    const queue = new NotificationQueue(clock);
    await withProgress({ progress: 'p', success: 's' }, () => Promise.resolve(1), queue);
    expect(shown(queue)).toBe('p');
    advance(MIN_PROGRESS_MS + GAP_MS);
    expect(shown(queue)).toBe('s');
    expect(queue.getSnapshot().current?.color).toBe('success');

    queue.close();
    advance(GAP_MS);
    await expect(
      withProgress({ progress: 'p2', success: 's2' }, () => Promise.reject(new Error('x')), queue),
    ).rejects.toThrow('x');
    advance(MIN_PROGRESS_MS + GAP_MS);
    expect(shown(queue)).toBeNull();
    expect(queue.pending()).toHaveLength(0);
  });
});

describe('a notice whose view is still loading (the first after a page load)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds a progress notice its full 500 ms from when it is displayed', () => {
    vi.useFakeTimers();
    const queue = new NotificationQueue(undefined, { awaitDisplay: true });
    const id = queue.push({ content: 'saving', showProgress: true });
    // The save finishes while the snackbar code is still loading.
    vi.advanceTimersByTime(400);
    queue.remove(id);
    vi.advanceTimersByTime(1_000);
    expect(shown(queue)).toBe('saving');

    queue.displayed(id);
    vi.advanceTimersByTime(MIN_PROGRESS_MS - 1);
    expect(shown(queue)).toBe('saving');
    vi.advanceTimersByTime(1);
    expect(shown(queue)).toBeNull();
  });

  it('times a notice out from when it is displayed, and the next from its own display', () => {
    vi.useFakeTimers();
    const queue = new NotificationQueue(undefined, { awaitDisplay: true });
    const first = queue.push({ content: 'first' });
    const second = queue.push({ content: 'second' });
    vi.advanceTimersByTime(300);
    queue.displayed(first);
    vi.advanceTimersByTime(SNACKBAR_TIMEOUT_MS - 1);
    expect(shown(queue)).toBe('first');
    vi.advanceTimersByTime(1 + GAP_MS);
    expect(shown(queue)).toBe('second');
    vi.advanceTimersByTime(SNACKBAR_TIMEOUT_MS);
    expect(shown(queue)).toBe('second');
    queue.displayed(second);
    queue.displayed(second); // a re-render reports it again: the clock does not restart
    vi.advanceTimersByTime(SNACKBAR_TIMEOUT_MS);
    expect(shown(queue)).toBeNull();
  });

  it('withProgress: the success notice follows a progress notice held 500 ms on screen', async () => {
    vi.useFakeTimers();
    const queue = new NotificationQueue(undefined, { awaitDisplay: true });
    await withProgress({ progress: 'p', success: 's' }, () => Promise.resolve(1), queue);
    vi.advanceTimersByTime(250);
    const progress = queue.getSnapshot().current;
    expect(progress?.content).toBe('p');
    queue.displayed(progress?.id ?? 0);
    vi.advanceTimersByTime(MIN_PROGRESS_MS - 1);
    expect(shown(queue)).toBe('p');
    vi.advanceTimersByTime(1 + GAP_MS);
    expect(shown(queue)).toBe('s');
  });

  it('closes a plain notice removed before display at once', () => {
    vi.useFakeTimers();
    const queue = new NotificationQueue(undefined, { awaitDisplay: true });
    const id = queue.push({ content: 'gone' });
    queue.remove(id);
    expect(shown(queue)).toBeNull();
  });
});

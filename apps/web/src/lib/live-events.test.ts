import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { subscribeLiveEvents } from './live-events';
import { session } from './session';

const encoder = new TextEncoder();

/** A text/event-stream body that sends `chunks` and then ends, or stays open. */
function stream(chunks: string[], end: boolean): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (end) controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('live events', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    session.set({ status: 'loggedIn', token: 'tok-1', authDisabled: false, user: null });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the Bearer token, dispatches by kind, and reconnects after a drop announcing both kinds', async () => {
    fetchMock
      .mockResolvedValueOnce(
        stream(['retry: 10\n\n: keepalive\n\nevent: al', 'erts\ndata: {}\n\n'], true),
      )
      .mockResolvedValueOnce(stream(['event: devices\ndata: {}\n\n'], false));
    const seen: string[] = [];
    const stopAlerts = subscribeLiveEvents('alerts', () => seen.push('alerts'));
    const stopDevices = subscribeLiveEvents('devices', () => seen.push('devices'));

    await until(() => seen.length >= 4);
    expect(seen).toEqual(['alerts', 'alerts', 'devices', 'devices']);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/events');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer tok-1');

    stopAlerts();
    stopDevices();
    const signal = fetchMock.mock.calls[1]?.[1]?.signal;
    expect(signal?.aborted).toBe(true);
  });

  it('logs out on 401 and does not retry', async () => {
    fetchMock.mockResolvedValueOnce(new Response('', { status: 401 }));
    const stop = subscribeLiveEvents('alerts', () => undefined);
    await until(() => session.get().status === 'loggedOut');
    await new Promise((r) => setTimeout(r, 50));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    stop();

    // Signed in again, a new subscriber opens a new stream.
    session.set({ status: 'loggedIn', token: 'tok-2', authDisabled: false, user: null });
    fetchMock.mockResolvedValueOnce(stream(['event: alerts\ndata: {}\n\n'], false));
    let heard = 0;
    const again = subscribeLiveEvents('alerts', () => (heard += 1));
    await until(() => heard === 1);
    expect(new Headers(fetchMock.mock.calls[1]?.[1]?.headers).get('authorization')).toBe(
      'Bearer tok-2',
    );
    again();
  });
});

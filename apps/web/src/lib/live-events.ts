import { useEffect, useRef } from 'react';
import { API_PREFIX } from './api-client';
import { logout, session } from './session';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { backoffMs } from './sse';

/** What GET /events announces: the organization's alerts or devices changed. */
export type LiveEventKind = 'alerts' | 'devices';

type Listener = () => void;

const listeners = new Map<LiveEventKind, Set<Listener>>();
let connection: AbortController | null = null;

const isKind = (name: string): name is LiveEventKind => name === 'alerts' || name === 'devices';

function emit(kind: LiveEventKind): void {
  for (const listener of listeners.get(kind) ?? []) listener();
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * One stream per tab, whatever the number of screens listening. EventSource cannot send the
 * Bearer token, so this reads the stream through fetch. After a drop it reconnects with
 * back-off, and announces every kind once, since changes may have been missed meanwhile.
 */
async function run(signal: AbortSignal): Promise<void> {
  let failures = 0;
  let baseMs = 1000;
  let reconnecting = false;
  while (!signal.aborted) {
    const { token } = session.get();
    try {
      const response = await fetch(`${API_PREFIX}/events`, {
        headers: {
          accept: 'text/event-stream',
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        },
        cache: 'no-store',
        signal,
      });
      if (response.status === 401 || response.status === 403) {
        // Like any call (spec §4); the next subscriber after signing in opens a new stream.
        if (connection?.signal === signal) connection = null;
        logout();
        return;
      }
      if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}`);
      failures = 0;
      if (reconnecting) {
        emit('alerts');
        emit('devices');
      }
      const reader = response.body
        .pipeThrough(new TextDecoderStream())
        .pipeThrough(
          new EventSourceParserStream({
            onRetry: (ms) => {
              baseMs = ms;
            },
          }),
        )
        .getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (value.event !== undefined && isKind(value.event)) emit(value.event);
      }
    } catch {
      if (signal.aborted) return;
      failures += 1;
    }
    reconnecting = true;
    await sleep(backoffMs(failures, baseMs), signal);
  }
}

/** Listens to `kind` (opening the shared stream if needed); returns the unsubscribe. */
export function subscribeLiveEvents(kind: LiveEventKind, listener: Listener): () => void {
  const set = listeners.get(kind) ?? new Set<Listener>();
  listeners.set(kind, set);
  set.add(listener);
  if (connection === null) {
    connection = new AbortController();
    void run(connection.signal);
  }
  return () => {
    set.delete(listener);
    const open = [...listeners.values()].some((s) => s.size > 0);
    if (!open && connection !== null) {
      connection.abort();
      connection = null;
    }
  };
}

/**
 * Calls `onEvent` whenever the server says `kind` changed, while the component is mounted;
 * with `minIntervalMs`, at most that often (the last event of a burst is never dropped).
 */
export function useLiveEvent(
  kind: LiveEventKind,
  onEvent: () => void,
  { minIntervalMs = 0 }: { minIntervalMs?: number } = {},
): void {
  const latest = useRef(onEvent);
  useEffect(() => {
    latest.current = onEvent;
  }, [onEvent]);
  useEffect(() => {
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const fire = () => {
      last = Date.now();
      timer = null;
      latest.current();
    };
    const unsubscribe = subscribeLiveEvents(kind, () => {
      if (timer !== null) return;
      const wait = last + minIntervalMs - Date.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    });
    return () => {
      if (timer !== null) clearTimeout(timer);
      unsubscribe();
    };
  }, [kind, minIntervalMs]);
}

/**
 * How often at most a screen reads devices again on `devices` events. The server tells of a
 * device's changed state, versions or pending flag at once (then at most every 250 ms), of
 * routine beats once a second: every screen shows a change well within a second of the report
 * (issue 19, item 7).
 */
export const LIVE_DEVICES_MS = 100;

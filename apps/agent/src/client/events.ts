// The push channel: GET /agent/events as server-sent events. `versions` events say that what
// the device runs has changed. The stream is reopened with a back-off when it drops; heartbeats
// still carry the same news meanwhile.

import { AgentHeartbeatReply } from '@palisade/contract';
import { createParser } from 'eventsource-parser';
import { backoffDelay, sleep } from './backoff.js';
import type { AgentApi } from './api.js';
import type { HttpAnswer } from './http.js';

/** `data` of an `event: versions`: the remote versions and whether to pull. */
export const VersionsPush = AgentHeartbeatReply.shape.remote.extend({
  pull: AgentHeartbeatReply.shape.pull,
});
export type VersionsPush = ReturnType<typeof VersionsPush.parse>;

export interface FollowOptions {
  api: AgentApi;
  signal: AbortSignal;
  onVersions: (push: VersionsPush) => void;
  onState?: (state: 'open' | 'closed', error?: unknown) => void;
  /** Anything came on the stream (an event or the server's keep-alive comment). */
  onActivity?: () => void;
  /** A stream quieter than this is considered dead (the server comments every 15 s). */
  idleTimeoutMs?: number;
}

async function readStream(options: FollowOptions, response: HttpAnswer): Promise<void> {
  const parser = createParser({
    onEvent(event) {
      if (event.event !== 'versions') return;
      try {
        const parsed = VersionsPush.safeParse(JSON.parse(event.data));
        if (parsed.success) options.onVersions(parsed.data);
      } catch {
        // A malformed event is ignored; the heartbeat carries the same news.
      }
    },
  });
  const decoder = new TextDecoder();
  const body = response.stream;
  const idleMs = options.idleTimeoutMs ?? 45_000;
  let idle: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => body.destroy(), idleMs);
  };
  try {
    arm();
    for await (const chunk of body) {
      arm();
      options.onActivity?.();
      parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
    }
  } finally {
    clearTimeout(idle);
  }
}

/** Follows the stream until `signal` aborts. */
export async function followEvents(options: FollowOptions): Promise<void> {
  const { signal } = options;
  let attempt = 0;
  while (!signal.aborted) {
    let opened = false;
    try {
      const response = await options.api.events(signal);
      opened = true;
      attempt = 0;
      options.onState?.('open');
      await readStream(options, response);
      options.onState?.('closed');
    } catch (error) {
      if (signal.aborted) return;
      options.onState?.('closed', error);
    }
    if (!opened) attempt += 1;
    await sleep(backoffDelay(Math.max(1, attempt), { baseMs: 1000, maxMs: 30_000 }), signal);
  }
}

/** One server-sent event: its `event:` name (default 'message') and joined `data:` lines. */
export interface SseEvent {
  event: string;
  data: string;
}

export interface SseChunk {
  events: SseEvent[];
  /** Text after the last complete event; prepend it to the next chunk. */
  rest: string;
  /** The last `retry:` field seen, in milliseconds. */
  retry?: number;
}

/**
 * The text/event-stream format (WHATWG HTML §9.2.6) over a buffer that may end mid-event.
 * Comments (`: keepalive`) and blocks without data are skipped, as EventSource does.
 */
export function parseSse(buffer: string): SseChunk {
  const text = buffer.replace(/\r\n?/g, '\n');
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: SseEvent[] = [];
  let retry: number | undefined;
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return { events, rest, retry };
}

/** Reconnection delay after `failures` failed attempts in a row: base × 2ⁿ, capped, jittered. */
export function backoffMs(failures: number, baseMs: number, random = Math.random): number {
  const capped = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.min(failures, 10));
  return Math.round(capped * (0.75 + random() * 0.5));
}

export const MAX_BACKOFF_MS = 30_000;

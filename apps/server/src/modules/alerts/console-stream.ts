import type { FastifyReply } from 'fastify';
import type { ConsoleEventHub, ConsoleEventKind } from '../../plugins/console-events.js';

const KEEPALIVE_MS = 15_000;
/** Many agents report at once: tell a console at most this often per kind. */
const COALESCE_MS = 500;

/**
 * A console's live channel (server-sent events). Events carry no data beyond their kind: the
 * console refetches what it shows, through the same authorised, paged calls as always.
 */
export function openConsoleStream(options: {
  reply: FastifyReply;
  hub: ConsoleEventHub;
  orgId: number;
  openStreams: Set<() => void>;
}): void {
  const { reply, hub, orgId, openStreams } = options;
  reply.hijack();
  const out = reply.raw;
  out.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  out.write('retry: 3000\n\n');

  const pending = new Map<ConsoleEventKind, NodeJS.Timeout>();
  const unsubscribe = hub.subscribe(orgId, (kind) => {
    if (pending.has(kind)) return;
    pending.set(
      kind,
      setTimeout(() => {
        pending.delete(kind);
        out.write(`event: ${kind}\ndata: {}\n\n`);
      }, COALESCE_MS),
    );
  });
  const keepalive = setInterval(() => out.write(': keepalive\n\n'), KEEPALIVE_MS);
  const end = () => {
    clearInterval(keepalive);
    for (const timer of pending.values()) clearTimeout(timer);
    unsubscribe();
    openStreams.delete(end);
    if (!out.writableEnded) out.end();
  };
  openStreams.add(end);
  out.on('close', end);
}

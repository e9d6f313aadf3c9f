import type { FastifyReply } from 'fastify';
import type { ConsoleEventHub, ConsoleEventKind } from '../../plugins/console-events.js';

const KEEPALIVE_MS = 15_000;
/**
 * Many agents report at once: tell a console at most this often per kind. The first event after
 * a quiet spell goes out at once (a device's change shows within a second, issue 19 item 7);
 * those within the spell are told once, at its end.
 */
const COALESCE_MS = 250;

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
  const lastSent = new Map<ConsoleEventKind, number>();
  const unsubscribe = hub.subscribe(orgId, (kind) => {
    if (pending.has(kind)) return;
    const send = () => {
      pending.delete(kind);
      lastSent.set(kind, Date.now());
      out.write(`event: ${kind}\ndata: {}\n\n`);
    };
    const wait = (lastSent.get(kind) ?? 0) + COALESCE_MS - Date.now();
    if (wait <= 0) send();
    else pending.set(kind, setTimeout(send, wait));
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

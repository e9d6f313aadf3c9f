import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Queryable } from '../db/client.js';
import { notifyChannel } from '../db/notify.js';

/** NOTIFY channel for the console's live views: `{"org":1,"kind":"alerts"}`. */
export const CONSOLE_CHANNEL = 'palisade_console';
export type ConsoleEventKind = 'alerts' | 'devices';

type Listener = (kind: ConsoleEventKind) => void;

/** Fans notifications out to the console streams of one organization, on every replica. */
export class ConsoleEventHub {
  private readonly byOrg = new Map<number, Set<Listener>>();

  subscribe(orgId: number, listener: Listener): () => void {
    const set = this.byOrg.get(orgId) ?? new Set<Listener>();
    this.byOrg.set(orgId, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.byOrg.delete(orgId);
    };
  }

  dispatch(payload: string): void {
    let message: { org?: unknown; kind?: unknown };
    try {
      message = JSON.parse(payload) as { org?: unknown; kind?: unknown };
    } catch {
      return;
    }
    if (
      typeof message.org !== 'number' ||
      (message.kind !== 'alerts' && message.kind !== 'devices')
    )
      return;
    for (const listener of this.byOrg.get(message.org) ?? []) listener(message.kind);
  }

  /** The LISTEN connection was lost and is back: every view refreshes what it shows. */
  dispatchEverything(): void {
    for (const set of [...this.byOrg.values()]) {
      for (const listener of [...set]) {
        listener('alerts');
        listener('devices');
      }
    }
  }
}

export async function notifyConsole(
  tx: Queryable,
  orgId: number,
  kind: ConsoleEventKind,
): Promise<void> {
  await notifyChannel(tx, CONSOLE_CHANNEL, JSON.stringify({ org: orgId, kind }));
}

declare module 'fastify' {
  interface FastifyInstance {
    consoleEvents: ConsoleEventHub;
  }
}

export const consoleEventsPlugin = fp(async (app: FastifyInstance) => {
  const hub = new ConsoleEventHub();
  const stop = await app.ctx.db.listen(
    CONSOLE_CHANNEL,
    (payload) => hub.dispatch(payload),
    () => {
      app.log.warn({ channel: CONSOLE_CHANNEL }, 'listening again after a lost connection');
      hub.dispatchEverything();
    },
  );
  app.decorate('consoleEvents', hub);
  app.addHook('onClose', async () => {
    await stop();
  });
});

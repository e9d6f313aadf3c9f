import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Queryable } from '../db/client.js';
import { notifyConsole } from './console-events.js';

/** NOTIFY channel: the payload is the organization whose devices may run something new. */
export const DEVICE_CHANNEL = 'palisade_devices';

type Listener = () => void;

/**
 * Tells connected agents, on any replica, that what their devices run may have changed.
 * Writers call notifyDevices inside their transaction; PostgreSQL delivers it on commit.
 */
export class DeviceEventHub {
  private readonly byOrg = new Map<number, Set<Listener>>();
  private readonly everyOrg = new Set<(orgId: number | null) => void>();

  subscribe(orgId: number, listener: Listener): () => void {
    let set = this.byOrg.get(orgId);
    if (!set) {
      set = new Set();
      this.byOrg.set(orgId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.byOrg.delete(orgId);
    };
  }

  /**
   * Hears of every organization's changes (caches of device state forget theirs); null means
   * every organization may have changed.
   */
  subscribeAll(listener: (orgId: number | null) => void): () => void {
    this.everyOrg.add(listener);
    return () => this.everyOrg.delete(listener);
  }

  dispatch(payload: string): void {
    const orgId = Number(payload);
    for (const listener of this.everyOrg) listener(orgId);
    for (const listener of this.byOrg.get(orgId) ?? []) listener();
  }

  /**
   * The LISTEN connection was lost and is back: what was notified meanwhile was missed, so
   * every listener acts as if its organization changed (streams re-read their versions).
   */
  dispatchEverything(): void {
    for (const listener of this.everyOrg) listener(null);
    for (const set of [...this.byOrg.values()]) for (const listener of [...set]) listener();
  }
}

/** Agents re-read their versions; consoles refresh their device views (versions, pending). */
export async function notifyDevices(tx: Queryable, orgId: number): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [DEVICE_CHANNEL, String(orgId)]);
  await notifyConsole(tx, orgId, 'devices');
}

declare module 'fastify' {
  interface FastifyInstance {
    deviceEvents: DeviceEventHub;
  }
}

export const deviceEventsPlugin = fp(async (app: FastifyInstance) => {
  const hub = new DeviceEventHub();
  const stop = await app.ctx.db.listen(
    DEVICE_CHANNEL,
    (payload) => hub.dispatch(payload),
    () => {
      app.log.warn({ channel: DEVICE_CHANNEL }, 'listening again after a lost connection');
      hub.dispatchEverything();
    },
  );
  app.decorate('deviceEvents', hub);
  app.addHook('onClose', async () => {
    await stop();
  });
});

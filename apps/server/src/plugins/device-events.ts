import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Queryable } from '../db/client.js';
import { notifyChannel } from '../db/notify.js';
import { notifyConsole } from './console-events.js';

/** NOTIFY channel: the organization whose devices may run something new, and which ones. */
export const DEVICE_CHANNEL = 'palisade_devices';

/** NOTIFY payloads must stay under 8,000 bytes: past this, a notice names the organization only. */
const MAX_PAYLOAD_CHARS = 7900;

/** The devices a notice names; null: any device of the organization may have changed. */
export type ChangedDevices = readonly number[] | null;

type Listener = (devices: ChangedDevices) => void;

/** `orgId`, or `orgId:id,id,…` when the writer named the devices that changed. */
export function devicePayload(orgId: number, deviceIds?: readonly number[]): string {
  if (deviceIds === undefined) return String(orgId);
  const payload = `${orgId}:${deviceIds.join(',')}`;
  return payload.length <= MAX_PAYLOAD_CHARS ? payload : String(orgId);
}

export function readDevicePayload(payload: string): { orgId: number; devices: ChangedDevices } {
  const colon = payload.indexOf(':');
  if (colon < 0) return { orgId: Number(payload), devices: null };
  const list = payload.slice(colon + 1);
  return {
    orgId: Number(payload.slice(0, colon)),
    devices: list === '' ? [] : list.split(',').map(Number),
  };
}

/**
 * Tells connected agents, on any replica, that what their devices run may have changed.
 * Writers call notifyDevices inside their transaction; PostgreSQL delivers it on commit.
 */
export class DeviceEventHub {
  private readonly byOrg = new Map<number, Set<Listener>>();
  private readonly everyOrg = new Set<(orgId: number | null) => void>();

  /** Hears of an organization's changes, with the devices they name (null: any device). */
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
    const { orgId, devices } = readDevicePayload(payload);
    for (const listener of this.everyOrg) listener(orgId);
    for (const listener of this.byOrg.get(orgId) ?? []) listener(devices);
  }

  /**
   * The LISTEN connection was lost and is back: what was notified meanwhile was missed, so
   * every listener acts as if its organization changed (streams re-read their versions).
   */
  dispatchEverything(): void {
    for (const listener of this.everyOrg) listener(null);
    for (const set of [...this.byOrg.values()]) for (const listener of [...set]) listener(null);
  }
}

/**
 * Agents re-read their versions; consoles refresh their device views (versions, pending).
 * `deviceIds` names the devices that changed, when the writer knows them: only their streams
 * look again (left out, every device of the organization does).
 */
export async function notifyDevices(
  tx: Queryable,
  orgId: number,
  deviceIds?: readonly number[],
): Promise<void> {
  await notifyChannel(tx, DEVICE_CHANNEL, devicePayload(orgId, deviceIds));
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

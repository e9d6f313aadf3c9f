import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import type { DeviceEventHub } from '../../plugins/device-events.js';
import type { DevicePrincipal } from '../../plugins/device-auth.js';
import type { RemoteVersions } from './agent.repository.js';

const KEEPALIVE_MS = 15_000;

/**
 * Server-sent events to one agent: `versions` whenever what its device runs changes (or a
 * flush is asked), first once on connect. Notifications arrive per organization; each stream
 * re-reads its own device's versions and speaks only when they differ from what it last sent.
 * A stream whose token was revoked meanwhile (a new device password, on any replica) or whose
 * device was deleted is ended: the agent must sign in again to hear anything more.
 */
export function openVersionStream(options: {
  request: FastifyRequest;
  reply: FastifyReply;
  hub: DeviceEventHub;
  device: DevicePrincipal;
  remote: () => Promise<RemoteVersions>;
  /** Ends of the open streams, so the server can end them when it shuts down. */
  openStreams: Set<() => void>;
}): void {
  const { request, reply, hub, device, remote, openStreams } = options;
  reply.hijack();
  const out = reply.raw;
  out.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  out.write('retry: 3000\n\n');

  let lastSent = '';
  let checking = Promise.resolve();
  const check = () => {
    checking = checking
      .then(async () => {
        const row = await remote();
        if (row.token_version !== device.tokenVersion) {
          end();
          return;
        }
        const versions = { config_version: row.config_version, policy_version: row.policy_version };
        const key = JSON.stringify(versions);
        if (key === lastSent && !row.flush_requested) return;
        lastSent = key;
        out.write(`event: versions\ndata: ${JSON.stringify({ ...versions, pull: true })}\n\n`);
      })
      .catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'unauthorized') end();
        else request.log.warn({ err: error, device: device.deviceId }, 'version push failed');
      });
  };

  const unsubscribe = hub.subscribe(device.orgId, check);
  const keepalive = setInterval(() => out.write(': keepalive\n\n'), KEEPALIVE_MS);
  const end = () => {
    clearInterval(keepalive);
    unsubscribe();
    openStreams.delete(end);
    if (!out.writableEnded) out.end();
  };
  openStreams.add(end);
  out.on('close', end);
  check();
}

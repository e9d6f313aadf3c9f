import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { ChangedDevices, DeviceEventHub } from '../../plugins/device-events.js';
import type { DevicePrincipal } from '../../plugins/device-auth.js';
import type { RemoteVersions } from './agent.repository.js';

const KEEPALIVE_MS = 15_000;

type Remotes = (deviceIds: readonly number[]) => Promise<(RemoteVersions & { id: number })[]>;

interface Stream {
  deviceId: number;
  /** The token version the stream was opened with: a newer one (a new password) ends it. */
  tokenVersion: number;
  write: (chunk: string) => void;
  end: () => void;
  /** The versions last sent, as JSON ('' before the first). */
  lastSent: string;
}

/** One organization's open streams on this replica, and the check that is due for them. */
interface OrgStreams {
  byDevice: Map<number, Set<Stream>>;
  unsubscribe: () => void;
  /** Devices to check at the next pass ('all': every stream of the organization). */
  due: Set<number> | 'all' | null;
  running: boolean;
}

/**
 * Server-sent events to agents: `versions` whenever what a device runs changes (or a flush is
 * asked), first once on connect. A notice names an organization and, when its writer knew them,
 * the devices that changed; one pass reads the versions of every affected stream of this
 * replica in one query (a change that reaches 5,000 devices is one query, not 5,000) and speaks
 * only to the streams whose versions differ from what they last sent. Notices that arrive while
 * a pass runs are merged into the next one. A stream whose token was revoked meanwhile (a new
 * device password, on any replica) or whose device was deleted is ended: the agent must sign in
 * again to hear anything more.
 */
export class VersionPush {
  private readonly orgs = new Map<number, OrgStreams>();
  private readonly ends = new Set<() => void>();
  /** Passes run (each one query): the tests count them. */
  passes = 0;

  constructor(
    private readonly hub: DeviceEventHub,
    private readonly remotes: Remotes,
    private readonly log: FastifyBaseLogger,
  ) {}

  open(request: FastifyRequest, reply: FastifyReply, device: DevicePrincipal): void {
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    out.write('retry: 3000\n\n');
    const stream: Stream = {
      deviceId: device.deviceId,
      tokenVersion: device.tokenVersion,
      write: (chunk) => {
        if (!out.writableEnded) out.write(chunk);
      },
      end: () => end(),
      lastSent: '',
    };
    const org = this.org(device.orgId);
    let streams = org.byDevice.get(device.deviceId);
    if (!streams) {
      streams = new Set();
      org.byDevice.set(device.deviceId, streams);
    }
    streams.add(stream);
    const keepalive = setInterval(() => stream.write(': keepalive\n\n'), KEEPALIVE_MS);
    let ended = false;
    // Called again by the socket's close after out.end(): by then a reconnect of the same
    // device may have opened new entries, which must stay.
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(keepalive);
      this.ends.delete(end);
      streams.delete(stream);
      if (streams.size === 0 && org.byDevice.get(device.deviceId) === streams) {
        org.byDevice.delete(device.deviceId);
      }
      if (org.byDevice.size === 0 && this.orgs.get(device.orgId) === org) {
        org.unsubscribe();
        this.orgs.delete(device.orgId);
      }
      if (!out.writableEnded) out.end();
    };
    this.ends.add(end);
    out.on('close', end);
    request.log.debug({ device: device.deviceId }, 'version stream open');
    this.check(device.orgId, [device.deviceId]);
  }

  /** Ends every open stream (at shutdown: they never finish by themselves). */
  endAll(): void {
    for (const end of [...this.ends]) end();
  }

  private org(orgId: number): OrgStreams {
    let org = this.orgs.get(orgId);
    if (!org) {
      org = {
        byDevice: new Map(),
        unsubscribe: this.hub.subscribe(orgId, (devices) => this.check(orgId, devices)),
        due: null,
        running: false,
      };
      this.orgs.set(orgId, org);
    }
    return org;
  }

  private check(orgId: number, devices: ChangedDevices): void {
    const org = this.orgs.get(orgId);
    if (!org) return;
    if (devices === null || org.due === 'all') org.due = 'all';
    else {
      org.due ??= new Set();
      for (const id of devices) if (org.byDevice.has(id)) org.due.add(id);
      if (org.due.size === 0) org.due = null;
    }
    if (org.due !== null && !org.running) void this.run(org);
  }

  private async run(org: OrgStreams): Promise<void> {
    org.running = true;
    try {
      while (org.due !== null) {
        const due = org.due;
        org.due = null;
        const ids = due === 'all' ? [...org.byDevice.keys()] : [...due];
        if (ids.length === 0) continue;
        this.passes += 1;
        try {
          const rows = new Map((await this.remotes(ids)).map((row) => [row.id, row]));
          for (const id of ids) {
            const row = rows.get(id);
            for (const stream of [...(org.byDevice.get(id) ?? [])]) {
              if (row === undefined || row.token_version !== stream.tokenVersion) stream.end();
              else this.send(stream, row);
            }
          }
        } catch (error) {
          this.log.warn({ err: error, devices: ids.length }, 'version push failed');
        }
      }
    } finally {
      org.running = false;
    }
  }

  private send(stream: Stream, row: RemoteVersions): void {
    const versions = { config_version: row.config_version, policy_version: row.policy_version };
    const key = JSON.stringify(versions);
    if (key === stream.lastSent && !row.flush_requested) return;
    stream.lastSent = key;
    stream.write(`event: versions\ndata: ${JSON.stringify({ ...versions, pull: true })}\n\n`);
  }
}

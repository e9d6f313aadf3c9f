// The agent's side of /api/v1/agent/*: sign-in and token renewal, and one method per call.
// Every answer is checked against the contract's schema (unknown fields are dropped).

import {
  AGENT_PROTOCOL_VERSION,
  AgentAck,
  AgentAlertAck,
  AgentBundle,
  AgentEnrolment,
  AgentHeartbeatReply,
  AgentToken,
  type AgentHeartbeat,
} from '@palisade/contract';
import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import { httpRequest, reachedEndpoint, type Endpoint, type HttpAnswer } from './http.js';
import type { SharedBundles } from './shared-bundles.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds the server asked us to wait (429). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface AgentApiOptions {
  server: string;
  deviceId: number;
  password: string;
  agentVersion: string;
  /** Per request, except the event stream (default 15 s). */
  timeoutMs?: number;
  /** A fleet's devices: bundles read through the process's shared ones (shared-bundles.ts). */
  sharedBundles?: SharedBundles;
  /**
   * Told of every answer the server sends, with performance.now() when its request was sent
   * (a firewall change is confirmed by an answer to a request sent after it was applied).
   */
  onAnswer?: (sentAt: number) => void;
}

export type BundleAnswer =
  { status: 'not-modified' } | { status: 'ok'; bundle: AgentBundle; etag: string | null };

export type AppliedReport = {
  config_version: number;
  policy_version: number;
  ok: boolean;
  error?: string | null;
};

export interface LogLine {
  time: string;
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
}

/** Renew when less than this share of the token's lifetime is left. */
const RENEW_AT = 0.2;

export interface EnrolOptions {
  server: string;
  /** The single-use enrolment token from the console. */
  token: string;
  agentVersion: string;
  hostname: string;
  timeoutMs?: number;
}

/** Addresses of calls by server and call name (a handful; never changed once made). */
const callUrls = new Map<string, URL>();

function agentBase(server: string): URL {
  return new URL('api/v1/agent/', server.endsWith('/') ? server : `${server}/`);
}

export class AgentApi {
  private readonly base: URL;
  private token: string | undefined;
  private renewAt = 0;
  private signingIn: Promise<string> | undefined;
  /** The last heartbeat sent, settled once answered (or failed): see `applied`. */
  private beating: Promise<unknown> | undefined;

  constructor(private readonly options: AgentApiOptions) {
    this.base = agentBase(options.server);
  }

  /** The server's address and port as the last connection to it reached them. */
  get serverEndpoint(): Endpoint | undefined {
    return reachedEndpoint(this.base.origin);
  }

  /** Exchanges an enrolment token, once, for the device's id, name and new password. */
  static async enrol(options: EnrolOptions): Promise<AgentEnrolment> {
    const response = await httpRequest(new URL('enrol', agentBase(options.server)), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token: options.token,
        agent_version: options.agentVersion,
        protocol: AGENT_PROTOCOL_VERSION,
        hostname: options.hostname,
      }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    if (!response.ok) await AgentApi.fail(response, 'enrolment');
    return AgentEnrolment.parse(await response.json());
  }

  get deviceId(): number {
    return this.options.deviceId;
  }

  /** The address of a call, parsed once per server and call for the whole process (a fleet). */
  private url(name: string): URL {
    const key = `${this.base.href} ${name}`;
    let url = callUrls.get(key);
    if (!url) {
      url = new URL(name, this.base);
      callUrls.set(key, url);
    }
    return url;
  }

  /**
   * Runs `request` under a signal that aborts when `outer` does or the time limit passes, and
   * drops both when it ends. The limit runs from when the request got its connection (`request`
   * calls `connected`): in a fleet process thousands of devices share one pool of connections,
   * and a request that waited its turn behind a fleet-wide change's pulls was aborted before it
   * was sent ("socket hang up"), its device applying the change only at its next heartbeat.
   * (AbortSignal.timeout kept a timer for the whole limit after each request, and
   * AbortSignal.any left a reference on the agent's stop signal per request: a fleet of
   * thousands of devices held tens of them each.)
   */
  private async limited<T>(
    outer: AbortSignal | undefined,
    request: (signal: AbortSignal, connected: () => void) => Promise<T>,
  ): Promise<T> {
    const controller = new AbortController();
    const ms = this.options.timeoutMs ?? 15_000;
    let timer: NodeJS.Timeout | undefined;
    const connected = () => {
      timer ??= setTimeout(
        () => controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')),
        ms,
      );
    };
    const stop = () => controller.abort(outer?.reason);
    if (outer?.aborted) stop();
    else outer?.addEventListener('abort', stop, { once: true });
    try {
      return await request(controller.signal, connected);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', stop);
    }
  }

  private static async fail(response: HttpAnswer, what: string): Promise<never> {
    let message = `${what}: HTTP ${response.status}`;
    try {
      const body = (await response.json()) as { msg?: unknown };
      if (typeof body.msg === 'string') message += ` ${body.msg}`;
    } catch {
      // not JSON
    }
    const retry = Number(response.header('retry-after'));
    throw new ApiError(response.status, message, Number.isFinite(retry) ? retry : undefined);
  }

  /** Signs in now (also done on demand by every call). */
  async login(signal?: AbortSignal): Promise<string> {
    const token = await this.limited(signal, async (limit, connected) => {
      const response = await httpRequest(this.url('login'), {
        onConnection: connected,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          device_id: this.options.deviceId,
          password: this.options.password,
          agent_version: this.options.agentVersion,
          protocol: AGENT_PROTOCOL_VERSION,
        }),
        signal: limit,
      });
      if (!response.ok) await AgentApi.fail(response, 'sign-in');
      return AgentToken.parse(await response.json());
    });
    this.token = token.access_token;
    this.renewAt = Date.now() + token.expires_in * 1000 * (1 - RENEW_AT);
    return token.access_token;
  }

  private async bearer(signal?: AbortSignal): Promise<string> {
    if (this.token && Date.now() < this.renewAt) return this.token;
    this.signingIn ??= this.login(signal).finally(() => {
      this.signingIn = undefined;
    });
    return this.signingIn;
  }

  /**
   * An authorised request and the reading of its answer (`read`), within the time limit; a 401
   * signs in again once and retries.
   */
  private call<T>(
    name: string,
    init: { method: string; body?: unknown; headers?: Record<string, string> },
    read: (response: HttpAnswer) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    return this.limited(signal, async (limit, connected) =>
      read(await this.send(name, { ...init, onConnection: connected }, limit, signal)),
    );
  }

  private async send(
    name: string,
    init: {
      method: string;
      body?: unknown;
      headers?: Record<string, string>;
      stream?: boolean;
      onConnection?: () => void;
    },
    signal: AbortSignal,
    /** The caller's own signal: a sign-in on the way has its own time limit. */
    outer?: AbortSignal,
  ): Promise<HttpAnswer> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.bearer(outer);
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...init.headers };
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      const sentAt = performance.now();
      const response = await httpRequest(this.url(name), {
        method: init.method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal,
        stream: init.stream,
        onConnection: init.onConnection,
      });
      this.options.onAnswer?.(sentAt);
      if (response.status === 401 && attempt === 0) {
        response.discard();
        if (this.token === token) this.token = undefined;
        continue;
      }
      return response;
    }
  }

  private async json<S extends z.ZodType>(
    schema: S,
    name: string,
    init: { method: string; body?: unknown },
    signal?: AbortSignal,
  ): Promise<z.infer<S>> {
    return this.call(
      name,
      init,
      async (response) => {
        if (!response.ok) await AgentApi.fail(response, name);
        return schema.parse(await response.json());
      },
      signal,
    );
  }

  heartbeat(body: AgentHeartbeat, signal?: AbortSignal): Promise<AgentHeartbeatReply> {
    const reply = this.json(AgentHeartbeatReply, 'heartbeat', { method: 'POST', body }, signal);
    this.beating = reply.catch(() => undefined);
    return reply;
  }

  async bundle(etag: string | null, signal?: AbortSignal): Promise<BundleAnswer> {
    const headers: Record<string, string> = etag ? { 'if-none-match': etag } : {};
    return this.call(
      'bundle',
      { method: 'GET', headers },
      async (response): Promise<BundleAnswer> => {
        if (response.status === 304) {
          response.discard();
          return { status: 'not-modified' };
        }
        if (!response.ok) await AgentApi.fail(response, 'bundle');
        const shared = this.options.sharedBundles;
        const bundle = shared
          ? await shared.read(response)
          : AgentBundle.parse(await response.json());
        return { status: 'ok', bundle, etag: response.header('etag') };
      },
      signal,
    );
  }

  /**
   * Sent once the heartbeat on its way (if any) is answered. That beat may carry the versions
   * from before the apply this reports, and the server takes a device's versions from whichever
   * of its beats and reports it receives last: on two connections the beat could arrive after
   * the report, and the console would show the device back on its old versions until its next
   * beat, up to a heartbeat period later.
   */
  async applied(body: AppliedReport, signal?: AbortSignal): Promise<void> {
    await this.beating;
    await this.call(
      'applied',
      { method: 'POST', body },
      async (response) => {
        if (!response.ok) await AgentApi.fail(response, 'applied');
        response.discard();
      },
      signal,
    );
  }

  /** The ack, and the events of this batch the server did not store (an older server: none). */
  alerts(seq: number, events: unknown[], signal?: AbortSignal): Promise<AgentAlertAck> {
    const body = { seq, events };
    return this.json(AgentAlertAck, 'alerts', { method: 'POST', body }, signal);
  }

  logs(seq: number, lines: LogLine[], signal?: AbortSignal): Promise<AgentAck> {
    const body = { seq, lines };
    return this.json(AgentAck, 'logs', { method: 'POST', body }, signal);
  }

  /** Opens the server-sent-event stream (no time limit: it stays open). */
  async events(signal: AbortSignal): Promise<HttpAnswer> {
    // No time limit: the stream stays open until `signal` ends it.
    const response = await this.send(
      'events',
      { method: 'GET', headers: { accept: 'text/event-stream' }, stream: true },
      signal,
      signal,
    );
    if (!response.ok) await AgentApi.fail(response, 'events');
    return response;
  }
}

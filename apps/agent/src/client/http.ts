// The agent's HTTP transport: node:http(s) with keep-alive, one connection pool per process.
//
// Not fetch: a fleet process (thousands of simulated devices) spent a third of its CPU in
// fetch's machinery (WHATWG streams, Request and Response objects), and undici's pool looks
// through its connections for a free one on every request, where every device's open event
// stream holds one: a cost that grew with the fleet. Node's agent keeps its free sockets apart.

import http from 'node:http';
import https from 'node:https';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * Idle connections are closed after 4 s: before the server closes them (Node's servers after
 * 5 s, Fastify's after 72 s, nginx's after 75 s), or a request sent on one as the server closes
 * it fails with "socket hang up" (seen hundreds of times starting a 5,000-device fleet).
 */
const IDLE_SOCKET_MS = 4000;
/**
 * Requests share at most this many connections per server (the rest wait for one): a fleet
 * process pulling 5,000 bundles at once opened 5,000 connections, past the server's listen
 * backlog, and many were reset ("socket hang up"). Event streams, open for good, have a pool
 * of their own without a limit.
 */
const MAX_REQUEST_SOCKETS = 128;
const requestPool = { keepAlive: true, scheduling: 'lifo', timeout: IDLE_SOCKET_MS } as const;
const pools = {
  http: new http.Agent({ ...requestPool, maxSockets: MAX_REQUEST_SOCKETS }),
  https: new https.Agent({ ...requestPool, maxSockets: MAX_REQUEST_SOCKETS }),
  httpStreams: new http.Agent({ keepAlive: false }),
  httpsStreams: new https.Agent({ keepAlive: false }),
};

/**
 * Requests beyond MAX_REQUEST_SOCKETS wait here for their turn, as a callback each, before they
 * exist as http.ClientRequests. Node's agent queues built requests, and one aborted while it
 * waited there ended only when a connection came free for it (with "socket hang up", not the
 * reason it was aborted for): a stopping fleet waited for its queue. Here an abort ends a waiting
 * request at once. (Waiting as callbacks also left a micro-benchmark of 5,000 devices' requests
 * 15–25% less garbage collection; the fleet bench did not tell the two apart, see
 * docs/operations.md.)
 */
class RequestSlots {
  private free: number;
  private readonly waiting: Turn[] = [];
  private head = 0;

  constructor(size: number) {
    this.free = size;
  }

  /**
   * Runs `start` once a slot is free; it calls the `release` it is given when done. Returns a
   * function that gives the place in line up (`start` then never runs).
   */
  acquire(start: (release: () => void) => void): () => void {
    if (this.free > 0) {
      this.free -= 1;
      this.run(start);
      return () => undefined;
    }
    const turn: Turn = { start, cancelled: false };
    this.waiting.push(turn);
    return () => {
      turn.cancelled = true;
    };
  }

  private run(start: (release: () => void) => void): void {
    let released = false;
    start(() => {
      if (released) return;
      released = true;
      this.release();
    });
  }

  /** Gives the slot to the next turn not given up (a loop: a stopping fleet gives up thousands). */
  private release(): void {
    for (;;) {
      const turn = this.waiting[this.head];
      if (turn === undefined) {
        this.free += 1;
        return;
      }
      this.waiting[this.head] = undefined as never;
      this.head += 1;
      if (this.head > 1024 && this.head * 2 > this.waiting.length) {
        this.waiting.splice(0, this.head);
        this.head = 0;
      }
      if (!turn.cancelled) {
        this.run(turn.start);
        return;
      }
    }
  }
}
interface Turn {
  start: (release: () => void) => void;
  cancelled: boolean;
}
/** By origin, as Node's agent counts its sockets (a few: one per server address). */
const requestSlots = new Map<string, RequestSlots>();
function slotsFor(origin: string): RequestSlots {
  let slots = requestSlots.get(origin);
  if (!slots) {
    slots = new RequestSlots(MAX_REQUEST_SOCKETS);
    requestSlots.set(origin, slots);
  }
  return slots;
}
const gunzip = promisify(zlib.gunzip);
const brotliDecompress = promisify(zlib.brotliDecompress);

export interface HttpInit {
  method: string;
  headers?: Record<string, string>;
  /** Sent as it is (JSON is serialised by the caller). */
  body?: string;
  /** Aborts the request, or the reading of its answer. */
  signal: AbortSignal;
  /** An answer that stays open (an event stream): sent on a connection of its own. */
  stream?: boolean;
  /**
   * Called when the request gets its connection: a fleet's requests may wait for one of the
   * pool's connections first (see MAX_REQUEST_SOCKETS), which is no fault of the server's.
   */
  onConnection?: () => void;
}

/** An answer whose headers have come; its body is read (or dropped) once. */
export class HttpAnswer {
  constructor(private readonly response: http.IncomingMessage) {}

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /**
   * A header's first value. Read from the raw list: Node builds the `headers` object on first
   * use, all of it, which cost a 5,000-device fleet 2% of its CPU.
   */
  header(name: string): string | null {
    const raw = this.response.rawHeaders;
    for (let i = 0; i < raw.length - 1; i += 2) {
      const key = raw[i]!;
      if (key.length === name.length && key.toLowerCase() === name.toLowerCase())
        return raw[i + 1]!;
    }
    return null;
  }

  /** The body's bytes as they came on the wire (still compressed, if they were). */
  async bytes(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.response) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** Bytes of this answer's body (from `bytes()`) uncompressed, as text. */
  async decode(raw: Buffer): Promise<string> {
    const encoding = this.header('content-encoding');
    if (encoding === 'gzip') return (await gunzip(raw)).toString('utf8');
    if (encoding === 'br') return (await brotliDecompress(raw)).toString('utf8');
    return raw.toString('utf8');
  }

  /** The body as the server sent it, uncompressed. */
  async text(): Promise<string> {
    return this.decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  /** Reads the body away unread, so that the connection serves the next request. */
  discard(): void {
    this.response.resume();
  }

  /** The body as it arrives (an event stream). */
  get stream(): http.IncomingMessage {
    return this.response;
  }
}

export interface Endpoint {
  address: string;
  port: number;
}

/** The server as the last answer from each origin reached this process: its socket's remote end. */
const reachedByOrigin = new Map<string, Endpoint>();

/** Where the last answer from `origin` came from (what the heartbeat reports as server_endpoint). */
export function reachedEndpoint(origin: string): Endpoint | undefined {
  return reachedByOrigin.get(origin);
}

function newRequest(url: URL, init: HttpInit): http.ClientRequest {
  const secure = url.protocol === 'https:';
  return (secure ? https : http).request(url, {
    method: init.method,
    headers: {
      'accept-encoding': 'br, gzip',
      ...init.headers,
      ...(init.body === undefined ? {} : { 'content-length': Buffer.byteLength(init.body) }),
    },
    agent: init.stream
      ? secure
        ? pools.httpsStreams
        : pools.httpStreams
      : secure
        ? pools.https
        : pools.http,
  });
}

/** Sends a request; resolves once the answer's headers have come. */
export function httpRequest(url: URL, init: HttpInit): Promise<HttpAnswer> {
  const { signal } = init;
  // The signal's reason (the caller's Error or DOMException), or why the connection ended.
  const stopped = (): Error =>
    signal.reason instanceof Error ? signal.reason : new Error('the request was aborted');
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(stopped());
      return;
    }
    let request: http.ClientRequest | undefined;
    // Aborting ends the request, or the reading of its answer, until the exchange is over
    // (its socket may serve another request by then, which the signal must not touch). Ended
    // without an error of its own: the reading of the answer hears "aborted". A request still
    // waiting for its turn (see RequestSlots) gives it up and is not sent.
    let answered = false;
    let giveUpTurn: (() => void) | undefined;
    const abort = () => {
      if (request) {
        request.destroy();
      } else {
        giveUpTurn?.();
        reject(stopped());
      }
    };
    signal.addEventListener('abort', abort, { once: true });
    const send = (release?: () => void) => {
      let sent: http.ClientRequest;
      try {
        sent = newRequest(url, init);
      } catch (error) {
        // A header Node refuses, say. This may run in the turn another request ended, which
        // must not hear of it; the next turn starts once this one has returned.
        signal.removeEventListener('abort', abort);
        if (release) queueMicrotask(release);
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      request = sent;
      if (init.onConnection) sent.once('socket', init.onConnection);
      sent.once('close', () => {
        release?.();
        signal.removeEventListener('abort', abort);
        if (!answered) reject(signal.aborted ? stopped() : new Error('the connection closed'));
      });
      sent.once('response', (response) => {
        answered = true;
        const { remoteAddress, remotePort } = response.socket;
        if (remoteAddress !== undefined && remotePort !== undefined) {
          reachedByOrigin.set(url.origin, {
            address: remoteAddress.replace(/^::ffff:/, ''),
            port: remotePort,
          });
        }
        // An abort while nobody reads the body (it was dropped, or is being read, which hears
        // of it by its own listener) must not become an uncaught error.
        response.on('error', () => undefined);
        resolve(new HttpAnswer(response));
      });
      sent.on('error', reject);
      sent.end(init.body);
    };
    if (init.stream) send();
    else giveUpTurn = slotsFor(url.origin).acquire(send);
  });
}

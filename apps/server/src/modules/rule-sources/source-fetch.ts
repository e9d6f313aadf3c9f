import { createHash } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { BlockList, isIP } from 'node:net';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EnvHttpProxyAgent, fetch, type Response } from 'undici';
import { formatBytes } from '../../lib/uploads.js';

/** A fetch that failed; `message` says why, for the update's `error`. */
export class SourceFetchError extends Error {}

export interface FetchTarget {
  /** The address to fetch (the secret code filled in). */
  url: string;
  /** The same address as the console shows it (the secret's placeholder kept): for messages. */
  shownUrl: string;
  headers: Record<string, string>;
}

export interface FetchRequest {
  archive: FetchTarget;
  checksum: FetchTarget | null;
  /** What the last successful fetch saw. */
  etag: string | null;
  lastModified: string | null;
  lastChecksum: string | null;
}

export type FetchOutcome =
  | { kind: 'not-modified'; bytes: number }
  | {
      kind: 'downloaded';
      /** The downloaded file and the name to unpack it as (`.rules`, `.tar.gz`, `.zip`). */
      file: string;
      fileName: string;
      bytes: number;
      etag: string | null;
      lastModified: string | null;
      /** The MD5 the checksum address published (and the download matched). */
      checksum: string | null;
      sha256: string;
    };

export interface FetcherOptions {
  timeoutMs: number;
  maxBytes: number;
  publicOnly: boolean;
  /** Ends every fetch under way (the server is closing). */
  signal?: AbortSignal;
}

const MAX_REDIRECTS = 5;
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
const CHECKSUM_MAX_BYTES = 64 * 1024;

/** Never fetched from: link-local addresses, where clouds answer with instance credentials. */
const ALWAYS_REFUSED = new BlockList();
ALWAYS_REFUSED.addSubnet('169.254.0.0', 16, 'ipv4');
ALWAYS_REFUSED.addSubnet('fe80::', 10, 'ipv6');
ALWAYS_REFUSED.addAddress('fd00:ec2::254', 'ipv6');

/** Not public: refused too under RULE_SOURCES_PUBLIC_ONLY. LAN mirrors are common otherwise. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addAddress('::', 'ipv6');

/**
 * Downloads rule sources: conditional requests, the checksum address first, redirects
 * followed by hand (each hop's address checked), the size limit enforced as bytes arrive, and
 * HTTP(S)_PROXY / NO_PROXY honoured.
 */
export class SourceFetcher {
  private readonly dispatcher: EnvHttpProxyAgent;

  constructor(private readonly options: FetcherOptions) {
    this.dispatcher = new EnvHttpProxyAgent({
      connectTimeout: options.timeoutMs,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  close = () => this.dispatcher.close();

  /** Downloads the source into `dir`, unless the checksum or the server says it did not change. */
  async fetch(request: FetchRequest, dir: string): Promise<FetchOutcome> {
    let bytes = 0;
    let checksum: string | null = null;
    if (request.checksum) {
      const text = await this.fetchText(request.checksum);
      bytes += Buffer.byteLength(text);
      checksum = /\b[0-9a-f]{32}\b/i.exec(text)?.[0]?.toLowerCase() ?? null;
      if (!checksum) {
        throw new SourceFetchError(`${request.checksum.shownUrl} holds no MD5 checksum`);
      }
      if (checksum === request.lastChecksum) return { kind: 'not-modified', bytes };
    }
    const conditional: Record<string, string> = {};
    if (request.etag) conditional['if-none-match'] = request.etag;
    if (request.lastModified) conditional['if-modified-since'] = request.lastModified;
    const response = await this.get(request.archive, conditional);
    if (response.status === 304) {
      await response.body?.cancel();
      return { kind: 'not-modified', bytes };
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > this.options.maxBytes) {
      await response.body?.cancel();
      throw overLimit(request.archive.shownUrl, this.options.maxBytes);
    }
    const file = path.join(dir, 'download');
    const digest = await this.save(response, file, request.archive.shownUrl);
    bytes += digest.bytes;
    if (checksum && digest.md5 !== checksum) {
      throw new SourceFetchError(
        `checksum mismatch: ${request.archive.shownUrl} has MD5 ${digest.md5}, ${request.checksum?.shownUrl} says ${checksum}`,
      );
    }
    return {
      kind: 'downloaded',
      file,
      fileName: await fileNameOf(response, file),
      bytes,
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
      checksum,
      sha256: digest.sha256,
    };
  }

  private async fetchText(target: FetchTarget): Promise<string> {
    const response = await this.get(target, {});
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of Readable.fromWeb(response.body as never) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > CHECKSUM_MAX_BYTES) throw overLimit(target.shownUrl, CHECKSUM_MAX_BYTES);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** A GET that answered 2xx or 304, redirects followed; anything else is a SourceFetchError. */
  private async get(target: FetchTarget, conditional: Record<string, string>): Promise<Response> {
    let url = new URL(target.url);
    const origin = url.origin;
    for (let hop = 0; ; hop += 1) {
      await this.checkAddress(url, target.shownUrl);
      // The source's own headers (credentials, often) go to its own origin only.
      const headers = url.origin === origin ? { ...target.headers, ...conditional } : {};
      let response: Response;
      try {
        response = await fetch(url, {
          headers: { 'user-agent': 'Palisade rule sources', ...headers },
          redirect: 'manual',
          dispatcher: this.dispatcher,
          signal: this.options.signal,
        });
      } catch (error) {
        throw this.networkError(error, url, target.shownUrl);
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && response.status !== 304 && location) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS)
          throw new SourceFetchError(`${target.shownUrl}: more than ${MAX_REDIRECTS} redirects`);
        url = new URL(location, url);
        if (url.protocol !== 'http:' && url.protocol !== 'https:')
          throw new SourceFetchError(`${target.shownUrl}: redirected to a ${url.protocol} address`);
        continue;
      }
      if (response.ok || response.status === 304) return response;
      await response.body?.cancel();
      throw new SourceFetchError(
        `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''} from ${target.shownUrl}`,
      );
    }
  }

  /** Refuses link-local addresses always, and private ones under RULE_SOURCES_PUBLIC_ONLY. */
  private async checkAddress(url: URL, shown: string): Promise<void> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      try {
        addresses = (await lookup(host, { all: true })).map((entry) => entry.address);
      } catch (error) {
        // Behind a proxy the proxy resolves the name; otherwise the fetch would fail the same way.
        if (process.env['HTTPS_PROXY'] || process.env['HTTP_PROXY'] || process.env['https_proxy'])
          return;
        const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
        throw new SourceFetchError(`cannot resolve ${host} (${code}) for ${shown}`);
      }
    }
    for (const raw of addresses) {
      const address = raw.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
      const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
      if (ALWAYS_REFUSED.check(address, family)) {
        throw new SourceFetchError(
          `${shown}: ${host} is the link-local address ${address}; rule sources are never fetched from it`,
        );
      }
      if (this.options.publicOnly && PRIVATE.check(address, family)) {
        throw new SourceFetchError(
          `${shown}: ${host} is the private address ${address}, refused under RULE_SOURCES_PUBLIC_ONLY`,
        );
      }
    }
  }

  private networkError(error: unknown, url: URL, shown: string): SourceFetchError {
    if (error instanceof SourceFetchError) return error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const code = cause?.code ?? (error as { code?: string }).code;
    const host = url.host;
    if (code === 'ECONNREFUSED')
      return new SourceFetchError(`connection refused by ${host} (${shown})`);
    if (code !== undefined && TIMEOUT_CODES.has(code))
      return timedOut(shown, this.options.timeoutMs);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return new SourceFetchError(`cannot resolve ${url.hostname} for ${shown}`);
    if ((error as Error).name === 'AbortError')
      return new SourceFetchError(`${shown}: stopped (the server is shutting down)`);
    return new SourceFetchError(
      `cannot fetch ${shown}: ${code ?? cause?.message ?? (error as Error).message}`,
    );
  }

  /** Writes the body to `file`, counting it against the limit and hashing it as it arrives. */
  private async save(response: Response, file: string, shown: string) {
    const md5 = createHash('md5');
    const sha256 = createHash('sha256');
    let bytes = 0;
    const { maxBytes } = this.options;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes > maxBytes) {
          done(overLimit(shown, maxBytes));
          return;
        }
        md5.update(chunk);
        sha256.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(response.body as never), meter, createWriteStream(file));
    } catch (error) {
      if (error instanceof SourceFetchError) throw error;
      const code = (error as { code?: string }).code;
      if (code === 'UND_ERR_BODY_TIMEOUT') throw timedOut(shown, this.options.timeoutMs);
      throw new SourceFetchError(
        `${shown}: the download broke off (${code ?? (error as Error).message})`,
      );
    }
    return { bytes, md5: md5.digest('hex'), sha256: sha256.digest('hex') };
  }
}

const overLimit = (shown: string, limit: number) =>
  new SourceFetchError(
    `${shown} is larger than the ${formatBytes(limit)} limit (IMPORT_MAX_BYTES)`,
  );

const timedOut = (shown: string, timeoutMs: number) =>
  new SourceFetchError(`timed out after ${timeoutMs / 1000} s waiting for ${shown}`);

const KNOWN = /\.(rules|tar\.gz|tgz|tar|zip)$/i;

/**
 * The name to unpack a download as: the address's last segment when it names a known kind
 * (`emerging.rules.tar.gz`), else Content-Disposition's file name, else what its first bytes are.
 */
async function fileNameOf(response: Response, file: string): Promise<string> {
  const fromUrl = decodeURIComponent(new URL(response.url).pathname.split('/').pop() ?? '');
  if (KNOWN.test(fromUrl)) return fromUrl;
  const disposition = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(
    response.headers.get('content-disposition') ?? '',
  )?.[1];
  if (disposition && KNOWN.test(disposition)) return path.basename(disposition);
  const head = Buffer.alloc(4);
  const handle = await open(file, 'r');
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  const base = fromUrl.replace(/[^\w.-]+/g, '_') || 'source';
  if (head[0] === 0x1f && head[1] === 0x8b) return `${base}.tar.gz`;
  if (head[0] === 0x50 && head[1] === 0x4b) return `${base}.zip`;
  return `${base}.rules`;
}

/** The downloaded file as a stream, for the unpacker. */
export const readDownload = (file: string) => createReadStream(file);

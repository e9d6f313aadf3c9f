import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { packTar } from 'modern-tar';

/** What the source server answers at one path. */
export interface Served {
  body?: Buffer | string;
  status?: number;
  /** Sent as ETag; a request with a matching If-None-Match gets 304. */
  etag?: string;
  /** Leave out Content-Length (a chunked answer), so the size is known only as it arrives. */
  chunked?: boolean;
  /** Never answer (the fetch times out). */
  hang?: boolean;
  /** Answer with a redirect to this path. */
  redirectTo?: string;
}

export interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
}

/**
 * A rule source on 127.0.0.1 for the tests: answers each path as set, and records every
 * request it received.
 */
export async function startSourceServer() {
  const routes = new Map<string, Served>();
  const hits: Hit[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.push({ path, headers: request.headers });
    const served = routes.get(path);
    if (!served) {
      response.writeHead(404).end('not here');
      return;
    }
    if (served.hang) {
      hanging.add(response);
      return;
    }
    if (served.redirectTo) {
      response.writeHead(302, { location: served.redirectTo }).end();
      return;
    }
    if (served.etag && request.headers['if-none-match'] === served.etag) {
      response.writeHead(304, { etag: served.etag }).end();
      return;
    }
    const body = Buffer.from(served.body ?? '');
    const headers: Record<string, string> = served.etag ? { etag: served.etag } : {};
    if (!served.chunked) headers['content-length'] = String(body.length);
    response.writeHead(served.status ?? 200, headers);
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    set: (path: string, served: Served) => routes.set(path, served),
    hits,
    /** Requests received since `from` (an index into `hits`). */
    since: (from: number) => hits.slice(from),
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
export type SourceServer = Awaited<ReturnType<typeof startSourceServer>>;

/** A port nothing listens on (it was just closed): connections to it are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A `.tar.gz` rule archive as Emerging Threats lays one out (`rules/<name>`). */
export async function ruleArchive(files: { name: string; text: string }[]): Promise<Buffer> {
  const encoder = new TextEncoder();
  const entries = files.map((file) => {
    const body = encoder.encode(file.text);
    return { header: { name: `rules/${file.name}`, size: body.length }, body };
  });
  return gzipSync(await packTar(entries));
}

export const md5Hex = (bytes: Buffer | string) => createHash('md5').update(bytes).digest('hex');

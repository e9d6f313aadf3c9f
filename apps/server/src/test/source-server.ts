import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { packTar } from 'modern-tar';
import type { RuleSource, RuleSourceUpdateDetail } from '@palisade/contract';
import { api, until, type TestServer } from './harness.js';

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

/**
 * Everything a rule source update could write, as one comparable value (the sources' own rows
 * only with `sources`: editing a source changes them).
 */
export async function tableSnapshot(server: TestServer, options: { sources?: boolean } = {}) {
  const [row] = await server.db.query<Record<string, unknown>>(
    `SELECT
      (SELECT md5(string_agg(id || ':' || text || ':' || removed || ':' || updated_at, ',' ORDER BY id)) FROM rules) AS rules,
      (SELECT md5(string_agg(group_id || ':' || rule_id, ',' ORDER BY group_id, rule_id)) FROM group_rules) AS members,
      (SELECT md5(string_agg(id || ':' || name || ':' || updated_at, ',' ORDER BY id)) FROM rule_groups) AS groups,
      (SELECT md5(string_agg(id || ':' || version, ',' ORDER BY id)) FROM policies) AS policies,
      (SELECT count(*) FROM rule_source_changes) AS changes
      ${options.sources === false ? '' : `, (SELECT md5(string_agg(id || ':' || coalesce(etag, '') || coalesce(last_checksum, '') || updated_at, ',' ORDER BY id)) FROM rule_sources) AS sources`}`,
  );
  return row;
}

/** The rule source calls the tests make, as one signed-in user. */
export function sourceApi(server: TestServer, headers: { authorization: string }) {
  return {
    async create(body: Record<string, unknown>): Promise<RuleSource> {
      const response = await api(server.app, {
        method: 'POST',
        url: '/rulesources/',
        headers,
        payload: { schedule: { kind: 'manual' }, ...body },
      });
      if (response.statusCode !== 201) throw new Error(`create: ${response.body}`);
      return response.json<RuleSource>();
    },

    async edit(id: number, body: Record<string, unknown>): Promise<RuleSource> {
      const response = await api(server.app, {
        method: 'PUT',
        url: `/rulesources/${id}`,
        headers,
        payload: body,
      });
      if (response.statusCode !== 200) throw new Error(`edit: ${response.body}`);
      return response.json<RuleSource>();
    },

    /** Asks for an update and waits until it has finished. */
    async update(id: number): Promise<RuleSourceUpdateDetail> {
      const started = await api(server.app, {
        method: 'POST',
        url: `/rulesources/${id}/update`,
        headers,
      });
      if (started.statusCode !== 202) throw new Error(`update: ${started.body}`);
      const updateId = started.json<{ update_id: number }>().update_id;
      return until(`update ${updateId}`, async () => {
        const detail = (
          await api(server.app, { url: `/rulesources/${id}/updates/${updateId}`, headers })
        ).json<RuleSourceUpdateDetail>();
        return detail.status === 'queued' || detail.status === 'running' ? undefined : detail;
      });
    },
  };
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentApi, ApiError } from './api.js';
import { followEvents } from './events.js';
import { SharedBundles } from './shared-bundles.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

let server: Server | undefined;
async function serve(handler: Handler): Promise<string> {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req, body, res));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
}
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

const json = (res: ServerResponse, status: number, value: unknown, headers = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
};

const options = (url: string) => ({
  server: url,
  deviceId: 4,
  password: 'secret-password',
  agentVersion: '9.9.9',
});

describe('agent API client', () => {
  it('gives up on an answer that stops coming, and leaves nothing on the stop signal', async () => {
    const url = await serve((req, _body, res) => {
      if (req.url === '/api/v1/agent/login') {
        return json(res, 200, { access_token: 't', token_type: 'bearer', expires_in: 3600 });
      }
      // Headers, then silence: the time limit covers reading the answer too.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"remote":');
    });
    const api = new AgentApi({ ...options(url), timeoutMs: 300 });
    const stopper = new AbortController();
    let listeners = 0;
    const add = stopper.signal.addEventListener.bind(stopper.signal);
    const remove = stopper.signal.removeEventListener.bind(stopper.signal);
    stopper.signal.addEventListener = (...args: Parameters<typeof add>) => {
      listeners += 1;
      add(...args);
    };
    stopper.signal.removeEventListener = (...args: Parameters<typeof remove>) => {
      listeners -= 1;
      remove(...args);
    };
    const beat = {
      state: 'running',
      local: { config_version: null, policy_version: null },
      agent_version: '9.9.9',
    };
    await expect(api.heartbeat(beat, stopper.signal)).rejects.toThrow(/300 ms|abort/i);
    expect(listeners).toBe(0);
  });

  it('signs in on demand, signs in again after a 401, and drops unknown fields', async () => {
    const logins: unknown[] = [];
    let tokens = 0;
    const url = await serve((req, body, res) => {
      if (req.url === '/api/v1/agent/login') {
        logins.push(JSON.parse(body));
        return json(res, 200, {
          access_token: `t${++tokens}`,
          token_type: 'bearer',
          expires_in: 3600,
        });
      }
      // The first token is refused once, as after a password change.
      if (req.headers.authorization === 'Bearer t1') return json(res, 401, { msg: 'expired' });
      return json(res, 200, {
        remote: { config_version: 3, policy_version: 5 },
        pull: true,
        interval: 30,
        future_field: 'ignored',
      });
    });
    const api = new AgentApi(options(url));
    const reply = await api.heartbeat({
      state: 'running',
      local: { config_version: null, policy_version: null },
      agent_version: '9.9.9',
    });
    expect(reply).toEqual({
      remote: { config_version: 3, policy_version: 5 },
      pull: true,
      interval: 30,
    });
    // What the heartbeat reports as server_endpoint: the connection's remote end.
    expect(api.serverEndpoint).toEqual({ address: '127.0.0.1', port: Number(new URL(url).port) });
    expect(logins).toEqual([
      { device_id: 4, password: 'secret-password', agent_version: '9.9.9', protocol: 1 },
      { device_id: 4, password: 'secret-password', agent_version: '9.9.9', protocol: 1 },
    ]);
  });

  it("sends an apply's report only once the heartbeat on its way is answered", async () => {
    const seen: string[] = [];
    let answerBeat = () => {};
    const url = await serve((req, _body, res) => {
      if (req.url === '/api/v1/agent/login') {
        return json(res, 200, { access_token: 't', token_type: 'bearer', expires_in: 3600 });
      }
      seen.push(req.url ?? '');
      if (req.url === '/api/v1/agent/heartbeat') {
        answerBeat = () =>
          json(res, 200, {
            remote: { config_version: 2, policy_version: 2 },
            pull: false,
            interval: 30,
          });
        return;
      }
      res.writeHead(204);
      res.end();
    });
    const api = new AgentApi(options(url));
    await api.login();
    // A beat with the versions from before the apply, then the apply's report.
    const beat = api.heartbeat({
      state: 'running',
      local: { config_version: 1, policy_version: 1 },
      agent_version: '9.9.9',
    });
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    const report = api.applied({ config_version: 2, policy_version: 2, ok: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual(['/api/v1/agent/heartbeat']);
    answerBeat();
    await Promise.all([beat, report]);
    expect(seen).toEqual(['/api/v1/agent/heartbeat', '/api/v1/agent/applied']);
    // With no beat on its way, a report goes at once.
    await api.applied({ config_version: 2, policy_version: 2, ok: true });
    expect(seen).toHaveLength(3);
  });

  it('renews a token that is close to expiring', async () => {
    let tokens = 0;
    const url = await serve((req, _body, res) => {
      if (req.url === '/api/v1/agent/login') {
        return json(res, 200, {
          access_token: `t${++tokens}`,
          token_type: 'bearer',
          expires_in: 0,
        });
      }
      json(res, 200, { ack: 1 });
    });
    const api = new AgentApi(options(url));
    await api.alerts(1, []);
    await api.alerts(1, []);
    expect(tokens).toBe(2);
  });

  it('sends If-None-Match and understands 304; refuses an answer off the contract', async () => {
    const url = await serve((req, _body, res) => {
      if (req.url === '/api/v1/agent/login') {
        return json(res, 200, { access_token: 't', token_type: 'bearer', expires_in: 3600 });
      }
      if (req.headers['if-none-match'] === '"1-2"') {
        res.writeHead(304);
        return res.end();
      }
      json(res, 200, { config_version: 'one' }, { etag: '"1-2"' });
    });
    const api = new AgentApi(options(url));
    expect(await api.bundle('"1-2"')).toEqual({ status: 'not-modified' });
    await expect(api.bundle(null)).rejects.toThrow();
  });

  it('asks for compressed answers and reads gzip and brotli ones', async () => {
    const bundle = {
      config_version: 1,
      policy_version: 2,
      rules: 'alert tcp any any -> any any (sid:1;)\n'.repeat(100),
      thresholds: '',
      variables: {},
      nftables: null,
      routes: null,
    };
    let encoding = 'gzip';
    const accepted: string[] = [];
    const url = await serve((req, _body, res) => {
      if (req.url === '/api/v1/agent/login') {
        return json(res, 200, { access_token: 't', token_type: 'bearer', expires_in: 3600 });
      }
      accepted.push(String(req.headers['accept-encoding']));
      const text = Buffer.from(JSON.stringify(bundle));
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(encoding === 'gzip' ? gzipSync(text) : brotliCompressSync(text));
    });
    const api = new AgentApi(options(url));
    for (const each of ['gzip', 'br']) {
      encoding = each;
      const answer = await api.bundle(null);
      expect(answer.status === 'ok' && answer.bundle.rules).toBe(bundle.rules);
    }
    expect(accepted).toEqual(['br, gzip', 'br, gzip']);
  });

  it("lets a fleet's devices share the bundle parsed from the same bytes, and only those", async () => {
    const bundleOf = (policy: number) => ({
      config_version: 1,
      policy_version: policy,
      rules: `alert tcp any any -> any any (msg:"policy ${policy}"; sid:1;)\n`.repeat(100),
      thresholds: '',
      variables: { HOME_NET: '[10.0.0.0/8]' },
      nftables: null,
      routes: null,
    });
    let policy = 1;
    const url = await serve((req, _body, res) => {
      if (req.url === '/api/v1/agent/login') {
        return json(res, 200, { access_token: 't', token_type: 'bearer', expires_in: 3600 });
      }
      const text = Buffer.from(JSON.stringify(bundleOf(policy)));
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
      res.end(brotliCompressSync(text));
    });
    const shared = new SharedBundles();
    const devices = [1, 2, 3].map(
      (deviceId) => new AgentApi({ ...options(url), deviceId, sharedBundles: shared }),
    );
    const read = async (api: AgentApi) => {
      const answer = await api.bundle(null);
      if (answer.status !== 'ok') throw new Error('no bundle');
      return answer.bundle;
    };
    const first = await Promise.all(devices.map(read));
    expect(first.map((b) => b.policy_version)).toEqual([1, 1, 1]);
    expect(first[0]).toEqual(bundleOf(1));
    expect(shared.parsed).toBe(1);
    // Other bytes are parsed for themselves: every device gets the new content.
    policy = 2;
    const second = await Promise.all(devices.map(read));
    expect(second.every((b) => b.rules.includes('policy 2') && b.policy_version === 2)).toBe(true);
    expect(shared.parsed).toBe(2);
  });

  it('counts its time limit from when a request got a connection, not while it waited for one', async () => {
    const url = await serve((req, _body, res) => {
      if (req.url === '/api/v1/agent/login') {
        return json(res, 200, { access_token: 't', token_type: 'bearer', expires_in: 3600 });
      }
      setTimeout(() => json(res, 200, { ack: 1 }), 1000);
    });
    // Two connection pools' worth and one more (a fleet's devices share one pool of 128): the
    // last one waits 2 s for a connection, then gets its answer 1 s later.
    const devices = Array.from(
      { length: 257 },
      (_, i) => new AgentApi({ ...options(url), deviceId: i + 1, timeoutMs: 2500 }),
    );
    await Promise.all(devices.map((api) => api.login()));
    const answers = await Promise.allSettled(devices.map((api) => api.logs(1, [])));
    expect(answers.filter((a) => a.status === 'rejected')).toEqual([]);
  });

  it('reports a refused sign-in with its status and the wait the server asks for', async () => {
    const url = await serve((_req, _body, res) =>
      json(res, 429, { msg: 'Too many attempts' }, { 'retry-after': '60' }),
    );
    const error = await new AgentApi(options(url)).login().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, retryAfter: 60 });
    expect(String(error)).toContain('Too many attempts');
  });

  it('follows the push channel and reconnects when it drops', async () => {
    let streams = 0;
    const url = await serve((req, _body, res) => {
      if (req.url === '/api/v1/agent/login') {
        return json(res, 200, { access_token: 't', token_type: 'bearer', expires_in: 3600 });
      }
      streams += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': hello\n\n');
      res.write(
        `event: versions\ndata: {"config_version":${streams},"policy_version":7,"pull":true}\n\n`,
      );
      res.end(); // the server goes away; the agent must come back
    });
    const stopper = new AbortController();
    const seen: number[] = [];
    const following = followEvents({
      api: new AgentApi(options(url)),
      signal: stopper.signal,
      onVersions: (push) => {
        seen.push(push.config_version);
        if (seen.length === 2) stopper.abort();
      },
    });
    await following;
    expect(seen).toEqual([1, 2]);
  }, 30_000);
});

import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpRequest } from './http.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A server that keeps /hold answers open (in `held`) and answers anything else "free". */
async function holdingServer() {
  const held: ServerResponse[] = [];
  const counts = { received: 0 };
  server = createServer((req, res) => {
    counts.received += 1;
    req.resume();
    if (req.url === '/hold') held.push(res);
    else res.end('free');
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { held, counts, hold: new URL('/hold', base), free: new URL('/free', base) };
}

describe('agent HTTP transport', () => {
  it('sends at most 128 requests at once; one aborted while it waits ends at once, unsent', async () => {
    const { held, counts, hold, free } = await holdingServer();

    const sent = Array.from({ length: 128 }, () =>
      httpRequest(hold, { method: 'GET', signal: new AbortController().signal }),
    );
    const stopper = new AbortController();
    const waiting = httpRequest(hold, { method: 'GET', signal: stopper.signal });
    await expect.poll(() => held.length).toBe(128);
    stopper.abort(new Error('the device stopped'));
    await expect(waiting).rejects.toThrow('the device stopped');

    for (const res of held.splice(0)) res.end('held');
    const texts = await Promise.all(sent.map(async (answer) => (await answer).text()));
    expect(texts.every((text) => text === 'held')).toBe(true);
    // The connections went back to the pool: the next request is sent and answered.
    const next = await httpRequest(free, { method: 'GET', signal: new AbortController().signal });
    expect(await next.text()).toBe('free');
    expect(counts.received).toBe(129);
  });

  it('gives up thousands of waiting turns at once, refuses a bad header alone, serves on', async () => {
    const { held, hold, free } = await holdingServer();
    const sent = Array.from({ length: 128 }, () =>
      httpRequest(hold, { method: 'GET', signal: new AbortController().signal }),
    );
    await expect.poll(() => held.length).toBe(128);

    // A fleet stopping: 20,000 requests waiting for a connection are aborted together.
    const stopper = new AbortController();
    const stopped = Array.from({ length: 20_000 }, () =>
      httpRequest(free, { method: 'GET', signal: stopper.signal }),
    );
    // A request Node cannot send (a line break in a header), waiting behind them.
    const badHeader = httpRequest(free, {
      method: 'GET',
      headers: { 'if-none-match': 'a\nb' },
      signal: new AbortController().signal,
    }).then(
      () => 'sent',
      (error: unknown) => String(error),
    );
    const after = httpRequest(free, { method: 'GET', signal: new AbortController().signal });
    stopper.abort(new Error('the fleet stopped'));
    const outcomes = await Promise.allSettled(stopped);
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);

    for (const res of held.splice(0)) res.end('held');
    await Promise.all(sent.map(async (answer) => (await answer).text()));
    expect(await badHeader).toMatch(/invalid character/i);
    expect(await (await after).text()).toBe('free');
  });

  it('reads a header case-insensitively, its first value when sent twice', async () => {
    server = createServer((_req, res) => {
      res.setHeader('ETag', ['"v1"', '"v2"']);
      res.end();
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const answer = await httpRequest(url, { method: 'GET', signal: new AbortController().signal });
    answer.discard();
    expect(answer.header('etag')).toBe('"v1"');
    expect(answer.header('ETAG')).toBe('"v1"');
    expect(answer.header('retry-after')).toBeNull();
  });
});

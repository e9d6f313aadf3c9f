import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { multipart } from './corpus.js';
import { api } from './harness.js';

/**
 * Imports `rules` as the rules file `fileName` and creates the policy `name` of every group
 * of the organization; the policy's id. For tests that need a device running real rules.
 */
export async function policyFromRules(
  app: FastifyInstance,
  headers: { authorization: string },
  fileName: string,
  rules: string,
  name: string,
): Promise<number> {
  const body = await multipart([{ name: fileName, bytes: rules }]);
  const imported = await api(app, {
    method: 'POST',
    url: '/rules/import',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  if (imported.statusCode !== 200) throw new Error(`import failed: ${imported.body}`);
  const groups = (await api(app, { method: 'GET', url: '/groups/', headers })).json<{
    data: { id: number }[];
  }>().data;
  const policy = await api(app, {
    method: 'POST',
    url: '/policies/',
    headers,
    payload: { name, group_ids: groups.map((g) => g.id) },
  });
  if (policy.statusCode !== 201) throw new Error(`policy failed: ${policy.body}`);
  return policy.json<{ id: number }>().id;
}

/**
 * The console's live channel (`GET /events`) as `headers` sees it, opened on `app` (which is
 * made to listen on a free port if it does not yet). `count(event, wanted)` reads until the
 * stream has carried `wanted` events of that name, or five seconds passed, and says how many
 * it carried.
 */
export async function consoleEvents(app: FastifyInstance, headers: { authorization: string }) {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const controller = new AbortController();
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/events`, {
    headers,
    signal: controller.signal,
  });
  if (!response.body) throw new Error('no event stream');
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  await reader.read(); // the retry: line
  const decoder = new TextDecoder();
  let received = '';
  const carried = (event: string) => received.split(`event: ${event}`).length - 1;
  return {
    async count(event: string, wanted: number): Promise<number> {
      const deadline = Date.now() + 5000;
      while (carried(event) < wanted && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        received += decoder.decode(value, { stream: true });
      }
      return carried(event);
    },
    close: () => controller.abort(),
  };
}

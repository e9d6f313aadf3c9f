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

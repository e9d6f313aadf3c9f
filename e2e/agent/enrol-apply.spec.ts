// The built agent against the server, end to end: a device made through the API is enrolled
// with its one-time token by `palisade-agent enrol`; `run` turns it Online with the built
// version and loads its policy; a policy change made through the API reaches it over the push
// channel and is reported applied, the reloaded file being the policy's render; SIGTERM stops
// it cleanly (exit code 0).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Policy, PolicyRender } from '@palisade/contract';
import { apiTest as test, expect } from '../fixtures.ts';
import { builtAgentVersion, withSensorAgent } from '../lib/agent.ts';
import { ok, uniqueName } from '../lib/rest.ts';

/** Long enough for a first start of the bundle on a loaded machine; polled, never slept. */
const ONLINE_TIMEOUT = 45_000;

test('agent: enrolled by token, Online, applies a policy change, stops cleanly', async ({
  admin,
  baseUrl,
  removeAfter,
}) => {
  let applied = '';
  const reload = (dir: string) => {
    applied = path.join(dir, 'applied.rules');
    return Promise.resolve(`cp palisade.rules ${applied}`);
  };
  await withSensorAgent(
    admin,
    { baseUrl, name: uniqueName('e2e-agent'), reload },
    async (sensor) => {
      const { device, policy, agent, view } = sensor;
      removeAfter(`devices/${device.id}`);

      await expect
        .poll(view, { timeout: ONLINE_TIMEOUT, message: 'the device Online, its policy applied' })
        .toMatchObject({
          online: true,
          agent_version: await builtAgentVersion(),
          policy_version_local: policy.version,
          update_pending: false,
          last_error: null,
        });
      const first = await ok<PolicyRender>(admin.get(`policies/${policy.id}/render`));
      expect(await readFile(applied, 'utf8')).toBe(first.rules);

      // One rule turned off: a new version, which the device is told of and applies.
      const changed = await ok<Policy>(
        admin.put(`policies/${policy.id}`, {
          data: { overrides: [{ rule_id: sensor.ruleIds[1], action: 'disable' }] },
        }),
      );
      expect(changed.version).toBeGreaterThan(policy.version);
      expect(changed.rule_count).toBe(2);
      await expect
        .poll(view, { timeout: ONLINE_TIMEOUT, message: 'the change reported applied' })
        .toMatchObject({
          policy_version_local: changed.version,
          policy_version_remote: changed.version,
          update_pending: false,
          last_error: null,
        });
      const second = await ok<PolicyRender>(admin.get(`policies/${policy.id}/render`));
      expect(second.rules).not.toBe(first.rules);
      expect(await readFile(applied, 'utf8')).toBe(second.rules);

      expect(await agent.stop(), await agent.log()).toBe(0);
    },
  );
});

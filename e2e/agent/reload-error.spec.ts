// The built agent's reload failing, end to end: while the sensor's reload command fails, a
// policy change is reported with the command's error as the device's last error and stays
// pending; once the command works again, the next change is applied and the error cleared.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Policy } from '@palisade/contract';
import { apiTest as test, expect } from '../fixtures.ts';
import { withSensorAgent } from '../lib/agent.ts';
import { ok, uniqueName } from '../lib/rest.ts';

const TIMEOUT = 45_000;

test('agent: a failing reload is the device’s last error until a change applies', async ({
  admin,
  baseUrl,
  removeAfter,
}) => {
  // Fails, as Suricata's reload does, while the file `fail` exists.
  let fail = '';
  let script = '';
  const reload = async (dir: string) => {
    fail = path.join(dir, 'fail');
    script = path.join(dir, 'reload.sh');
    await writeFile(
      script,
      `if [ -e "${fail}" ]; then echo "rule reload failed: bad option" >&2; exit 4; fi\n`,
    );
    return `sh ${script}`;
  };
  await withSensorAgent(
    admin,
    { baseUrl, name: uniqueName('e2e-reload'), reload },
    async (sensor) => {
      const { device, policy, agent, view } = sensor;
      removeAfter(`devices/${device.id}`);
      await expect
        .poll(view, { timeout: TIMEOUT, message: 'the device Online, its policy applied' })
        .toMatchObject({ online: true, policy_version_local: policy.version, last_error: null });

      await writeFile(fail, '');
      const refused = await ok<Policy>(
        admin.put(`policies/${policy.id}`, {
          data: { overrides: [{ rule_id: sensor.ruleIds[0], action: 'disable' }] },
        }),
      );
      await expect
        .poll(async () => (await view()).last_error ?? '', {
          timeout: TIMEOUT,
          message: 'the failed reload reported',
        })
        .toContain(`reload command "sh ${script}" failed with exit code 4`);
      const failed = await view();
      expect(failed.policy_version_local).toBe(policy.version);
      expect(failed.policy_version_remote).toBe(refused.version);

      await rm(fail);
      const fixed = await ok<Policy>(
        admin.put(`policies/${policy.id}`, {
          data: { overrides: [{ rule_id: sensor.ruleIds[2], action: 'disable' }] },
        }),
      );
      await expect
        .poll(view, { timeout: TIMEOUT, message: 'the next change applied, the error cleared' })
        .toMatchObject({
          policy_version_local: fixed.version,
          update_pending: false,
          last_error: null,
        });
      expect(await agent.stop(), await agent.log()).toBe(0);
    },
  );
});

// Why rules failed, agent → server: Suricata's stats count a failed rule, its log says why; the
// agent sends the reason with its health and the device shows it.

import type { Device } from '@palisade/contract';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleClient, ServerProcess, SourceProcess } from './testing/processes.js';
import { deviceAgent, startConsole, waitFor } from './testing/processes.js';

const PASSWORD = 'device-password-0007';
const REASON =
  'error parsing signature "alert tcp any any -> any any (msg:\\"x\\"; flow:sideways; sid:9000001;)" from file /out/palisade.rules at line 3';

const stats = (failed: number) => ({
  timestamp: '2026-11-28T10:00:08.000000+0000',
  event_type: 'stats',
  stats: {
    uptime: 8,
    capture: { kernel_packets: 1000, kernel_drops: 0 },
    detect: {
      alert: 0,
      engines: [
        {
          id: 0,
          last_reload: '2026-11-28T10:00:00.000000+0000',
          rules_loaded: 2,
          rules_failed: failed,
        },
      ],
    },
  },
});

describe('the reasons for rules the engine failed to load', () => {
  let dir: string;
  let server: ServerProcess;
  let admin: ConsoleClient;
  let agent: SourceProcess | undefined;
  let device: Device;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-agent-rule-errors-'));
    ({ server, admin } = await startConsole(dir));
    device = await admin.ok<Device>('POST', '/devices/', { name: 'ids-1', password: PASSWORD });
    const eve = path.join(dir, 'eve.json');
    const log = path.join(dir, 'suricata.log');
    await writeFile(eve, `${JSON.stringify(stats(1))}\n`);
    await writeFile(
      log,
      `[7] 28/11/2026 -- 10:00:00 - (detect-parse.c:2700) <Error> (SigInitHelper) -- ${REASON}\n` +
        '[7] 28/11/2026 -- 10:00:01 - (detect-engine-loader.c:353) <Info> -- 2 signatures processed\n',
    );
    await writeFile(path.join(dir, 'password'), `${PASSWORD}\n`);
    agent = deviceAgent(server.url, device.id, dir, [
      '--eve',
      eve,
      '--eve-start',
      'beginning',
      '--suricata-log',
      log,
      '--heartbeat',
      '1',
    ]);
    agent.start();
  }, 180_000);

  afterAll(async () => {
    await agent?.stop();
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it("sends Suricata's reason with the failed count, and the device shows it", async () => {
    const seen = await waitFor('the reason on the device', async () => {
      const d = await admin.ok<Device>('GET', `/devices/${device.id}`);
      return d.sensor?.rule_errors ? d : undefined;
    });
    expect(seen.sensor).toMatchObject({ rules_loaded: 2, rules_failed: 1, rule_errors: [REASON] });
    expect(seen.health).toEqual({ status: 'degraded', reasons: ['rules_failed'] });
  }, 60_000);
});

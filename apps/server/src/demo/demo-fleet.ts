import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../plugins/auth.js';
import { createDevicesService, findDemoSensorIds } from '../modules/devices/devices.service.js';
import { findCustomGroupId } from '../modules/groups/groups.service.js';
import { createPoliciesService } from '../modules/policies/policies.service.js';
import { createProfilesService } from '../modules/profiles/profiles.service.js';
import { createRulesService } from '../modules/rules/rules.service.js';
import { findDefaultAdministrator } from '../modules/users/users.service.js';

const AGENT_CLI = fileURLToPath(new URL('../../../agent/dist/cli.js', import.meta.url));

/** A few signatures of our own, so the demo needs no downloaded rule set. */
const DEMO_RULES = [
  'alert tcp $EXTERNAL_NET any -> $HOME_NET 22 (msg:"PALISADE DEMO SSH brute force attempt"; flow:to_server; flags:S; classtype:attempted-admin; sid:9900001; rev:1;)',
  'alert tcp $EXTERNAL_NET any -> $HOME_NET 3389 (msg:"PALISADE DEMO RDP connection from outside"; flow:to_server,established; classtype:policy-violation; sid:9900002; rev:1;)',
  'alert http $EXTERNAL_NET any -> $HOME_NET any (msg:"PALISADE DEMO SQL injection in URI"; flow:to_server,established; content:"union"; nocase; http_uri; content:"select"; nocase; http_uri; classtype:web-application-attack; sid:9900003; rev:1;)',
  'alert dns $HOME_NET any -> any any (msg:"PALISADE DEMO DNS query for a dynamic-DNS domain"; dns.query; content:".duckdns.org"; nocase; endswith; classtype:bad-unknown; sid:9900004; rev:1;)',
  'alert tls $HOME_NET any -> $EXTERNAL_NET any (msg:"PALISADE DEMO TLS to a self-signed certificate"; tls.cert_issuer; content:"CN=localhost"; classtype:policy-violation; sid:9900005; rev:1;)',
  'alert icmp $EXTERNAL_NET any -> $HOME_NET any (msg:"PALISADE DEMO ICMP sweep"; itype:8; detection_filter:track by_src, count 20, seconds 10; classtype:attempted-recon; sid:9900006; rev:1;)',
  'alert tcp $HOME_NET any -> $EXTERNAL_NET 4444 (msg:"PALISADE DEMO outbound connection to a common reverse-shell port"; flow:to_server; classtype:trojan-activity; sid:9900007; rev:1;)',
  'alert http $HOME_NET any -> $EXTERNAL_NET any (msg:"PALISADE DEMO curl or wget user agent"; flow:to_server,established; http.user_agent; pcre:"/^(curl|wget)\\//i"; classtype:policy-violation; sid:9900008; rev:1;)',
];

async function defaultAdministrator(app: FastifyInstance): Promise<Principal | undefined> {
  const row = await findDefaultAdministrator(app.ctx.db);
  return row
    ? { userId: row.id, orgId: row.org_id, role: 'Administrator', email: row.email }
    : undefined;
}

/** The demo's devices, created once with consecutive ids (the fleet mode counts from the first). */
async function demoDevices(
  app: FastifyInstance,
  admin: Principal,
  count: number,
  password: string,
) {
  const { db } = app.ctx;
  const existing = await findDemoSensorIds(db, admin.orgId);
  if (existing.length >= count) return existing.slice(0, count).map((d) => d.id);
  if (existing.length > 0) return existing.map((d) => d.id);

  const rules = createRulesService(db);
  for (const text of DEMO_RULES) {
    await rules.create(admin, { text }).catch(() => undefined); // already there: keep it
  }
  const customGroupId = await findCustomGroupId(db, admin.orgId);
  const policy = await createPoliciesService(db).create(admin, {
    name: `Demo policy ${randomBytes(2).toString('hex')}`,
    description: 'Created by DEMO_FLEET',
    group_ids: customGroupId === undefined ? [] : [customGroupId],
    overrides: [],
    thresholds: [],
    matchers: [],
    restricted: false,
    resolve_flowbits: true,
    editors: [],
  });
  const profile = await createProfilesService(db, app.ctx.config.publicUrl).create(admin, {
    name: `Demo network ${randomBytes(2).toString('hex')}`,
    description: 'Created by DEMO_FLEET',
    variables: {
      HOME_NET: '[10.0.0.0/8,192.168.0.0/16,172.16.0.0/12]',
      EXTERNAL_NET: '!$HOME_NET',
      HTTP_PORTS: '[80,8080]',
    },
  });
  const devices = createDevicesService(db, app.ctx.agentVersion);
  const ids: number[] = [];
  const cities = ['Oslo', 'Lisbon', 'Nairobi', 'Osaka', 'Denver', 'Tallinn'];
  for (let i = 1; i <= count; i += 1) {
    const device = await devices.create(admin, {
      name: `demo-sensor-${i}`,
      description: 'Simulated by the demo fleet',
      address: `10.20.${i}.1`,
      city: cities[(i - 1) % cities.length] ?? '',
      licensed: true,
      password,
      profile_id: profile.id,
      policy_id: policy.id,
      firewall_id: null,
    });
    ids.push(device.id);
  }
  return ids;
}

const consecutive = (ids: number[]) =>
  ids.every((id, i) => i === 0 || id === (ids[i - 1] ?? 0) + 1);

/**
 * DEMO_FLEET=N: N simulated sensors (demo rules, policy, profile, devices) and one agent
 * process running them in fleet mode; the caller stops it with the server. For a first look only.
 */
export async function startDemoFleet(
  app: FastifyInstance,
  count: number,
  serverUrl: string,
): Promise<ChildProcess | undefined> {
  const { config } = app.ctx;
  if (!existsSync(AGENT_CLI)) {
    app.log.warn(`DEMO_FLEET: ${AGENT_CLI} is missing; run npm run build`);
    return undefined;
  }
  const admin = await defaultAdministrator(app);
  if (!admin) return undefined;
  const folder = path.join(config.dataDir, 'demo-fleet');
  await mkdir(folder, { recursive: true });
  const passwordFile = path.join(folder, 'password');
  const password = existsSync(passwordFile)
    ? (await readFile(passwordFile, 'utf8')).trim()
    : randomBytes(18).toString('base64url');
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  const ids = await demoDevices(app, admin, count, password);
  if (ids.length === 0 || !consecutive(ids)) {
    app.log.warn(
      'DEMO_FLEET: the demo devices do not have consecutive ids; not starting the fleet',
    );
    return undefined;
  }
  const child = spawn(
    process.execPath,
    [
      AGENT_CLI,
      'fleet',
      '--count',
      String(ids.length),
      '--device-id',
      String(ids[0]),
      '--server',
      serverUrl,
      '--password-file',
      passwordFile,
      '--output-dir',
      path.join(folder, 'out'),
      '--state-dir',
      path.join(folder, 'state'),
      '--start-spread',
      '2',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return child;
}

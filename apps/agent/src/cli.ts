#!/usr/bin/env node
// palisade-agent: `run` one device's agent, or `fleet` a number of simulated devices.
// Every flag has an environment twin (--device-id ↔ PALISADE_DEVICE_ID) and a config-file key.

import { Command, Option } from 'commander';
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import { Agent } from './agent.js';
import { agentFlavor, agentVersion as version } from './build-info.js';
import { enrol, ENROL_TOKEN_ENV, EnrolError } from './enrol/enrol.js';
import { setFsync } from './fs/atomic.js';
import { SharedBundles } from './client/shared-bundles.js';
import { createLogger, LogTap } from './log.js';
import {
  describeIssues,
  FleetSchema,
  mergeOptions,
  readConfigFile,
  readPassword,
  SettingsSchema,
  toAgentSettings,
  type RawOptions,
} from './settings.js';

interface FlagSpec {
  flags: string;
  description: string;
  /** Repeatable flag (collects values). */
  many?: boolean;
}

const COMMON: FlagSpec[] = [
  { flags: '--server <url>', description: 'Palisade server, e.g. https://palisade.example.org' },
  { flags: '--device-id <n>', description: 'device id (in the console)' },
  {
    flags: '--password-file <file>',
    description: "file holding the device's password (or set PALISADE_PASSWORD)",
  },
  { flags: '--output-dir <dir>', description: 'where the bundle files are written' },
  { flags: '--state-dir <dir>', description: 'spool, tail positions, applied versions' },
  {
    flags: '--reload-cmd <command>',
    description: 'run after each bundle, in the output folder (repeatable; env: one per line)',
    many: true,
  },
  { flags: '--reload-timeout <seconds>', description: 'time limit per reload command (60)' },
  { flags: '--eve <file>', description: "Suricata's eve.json to ship alerts from" },
  {
    flags: '--eve-start <where>',
    description: 'first run only: "end" skips alerts already in eve.json, "beginning" ships them',
  },
  { flags: '--simulate', description: 'simulated metrics and alerts, no Suricata needed' },
  { flags: '--simulate-rate <n>', description: 'simulated alerts per second between bursts (0.2)' },
  {
    flags: '--simulate-bursts <n>',
    description: 'simulated bursts of alerts (10-60 s at 2-22 a second) per hour (6)',
  },
  { flags: '--disk-path <path>', description: 'file system whose use is reported (/)' },
  { flags: '--batch-size <n>', description: 'alerts per batch at most (500)' },
  {
    flags: '--batch-delay <ms>',
    description: 'longest wait before a partial batch is sent (1000)',
  },
  { flags: '--spool-max-mb <n>', description: 'spool size before the oldest batches go (512)' },
  { flags: '--heartbeat <seconds>', description: "heartbeat period instead of the server's" },
  { flags: '--no-push', description: 'no push channel: learn of changes from heartbeats only' },
  { flags: '--log-level <level>', description: 'debug, info, warn, error or silent (info)' },
  {
    flags: '--install-dir <dir>',
    description: 'where install.sh put the agent (versions/, current): lets it upgrade itself',
  },
  {
    flags: '--upgrade-timeout <seconds>',
    description: 'time a new version has to report in before the old one is restored (120)',
  },
  {
    flags: '--firewall-confirm <seconds>',
    description:
      'a firewall change without contact with the server this long is undone (120; 0 never)',
  },
  {
    flags: '--firewall-restore-cmd <command>',
    description:
      'applies the previous ruleset when a change is undone (nft -f nftables.nft.previous)',
  },
  {
    flags: '--nft <program>',
    description: "lists Palisade's table and re-applies it when changed outside Palisade (nft)",
  },
  {
    flags: '--firewall-hits <seconds>',
    description: "how often the firewall rules' counters go to the server (300; 0 never)",
  },
  {
    flags: '--suricata-log <file>',
    description:
      "Suricata's log: why rules failed to load (/var/log/suricata/suricata.log; '' none)",
  },
  { flags: '--config <file>', description: 'JSON file with any of these settings' },
];

const FLEET: FlagSpec[] = [
  { flags: '--count <n>', description: 'number of simulated devices (ids device-id … +count-1)' },
  { flags: '--start-spread <seconds>', description: 'spread the devices start over (10)' },
];

const ENROL: FlagSpec[] = [
  { flags: '--server <url>', description: 'Palisade server, e.g. https://palisade.example.org' },
  { flags: '--config <file>', description: 'JSON config file to create or update' },
  { flags: '--password-file <file>', description: "file to write the device's password to" },
];

function envName(key: string): string {
  return `PALISADE_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

function addFlags(command: Command, specs: FlagSpec[]): Command {
  for (const spec of specs) {
    const option = new Option(spec.flags, spec.description);
    command.addOption(
      spec.many
        ? option.argParser((value: string, previous: string[] | undefined) => [
            ...(previous ?? []),
            value,
          ])
        : option,
    );
  }
  return command;
}

/** Flags given on the command line, then environment twins, then the config file. */
async function gather(command: Command, specs: FlagSpec[]): Promise<RawOptions> {
  const given: RawOptions = {};
  const sources: Record<string, string> = {};
  const values = command.opts<RawOptions>();
  for (const spec of specs) {
    const key = new Option(spec.flags).attributeName();
    if (command.getOptionValueSource(key) === 'cli') {
      given[key] = values[key];
      sources[key] = 'cli';
      continue;
    }
    const env = process.env[envName(key)];
    if (env !== undefined && env !== '') {
      given[key] = env;
      sources[key] = 'env';
    }
  }
  const configFile = typeof given.config === 'string' ? given.config : undefined;
  const file = configFile ? await readConfigFile(configFile) : {};
  return mergeOptions(given, sources, file);
}

function check<S extends z.ZodType>(schema: S, raw: RawOptions): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const line of describeIssues(parsed.error)) console.error(`palisade-agent: ${line}`);
  process.exit(2);
}

function onSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) process.exit(1);
    stopping = true;
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

async function run(command: Command): Promise<void> {
  const settings = check(SettingsSchema, await gather(command, COMMON));
  const password = await readPassword(settings, process.env);
  const tap = new LogTap();
  const log = createLogger({ level: settings.logLevel, tap });
  const agent = new Agent(toAgentSettings(settings, password), {
    log,
    tap,
    agentVersion: version,
    flavor: agentFlavor,
    // After an upgrade switched versions, or when a new one gives up: the supervisor restarts it.
    exit: (code) => process.exit(code),
  });
  await agent.start();
  onSignals(async () => {
    log.info('stopping');
    await agent.stop();
  });
}

/** A flag given on the command line, else its environment twin. */
function flagOrEnv(command: Command, spec: FlagSpec): string | undefined {
  const key = new Option(spec.flags).attributeName();
  const value = command.opts<Record<string, unknown>>()[key];
  if (command.getOptionValueSource(key) === 'cli' && typeof value === 'string') return value;
  const env = process.env[envName(key)];
  return env === undefined || env === '' ? undefined : env;
}

async function enrolDevice(command: Command): Promise<void> {
  const fail = (message: string): never => {
    console.error(`palisade-agent: ${message}`);
    process.exit(1);
  };
  if (command.getOptionValueSource('token') !== undefined)
    fail(
      `--token is refused: a token on the command line shows in ps and shell history; set ${ENROL_TOKEN_ENV} instead`,
    );
  const [server, configFile, passwordFile] = ENROL.map((spec) => flagOrEnv(command, spec));
  if (!configFile) fail('--config: the config file to write is required');
  if (!passwordFile) fail('--password-file: the file to write the password to is required');
  try {
    const enrolled = await enrol({
      server,
      configFile: configFile ?? '',
      passwordFile: passwordFile ?? '',
      token: process.env[ENROL_TOKEN_ENV] ?? '',
      agentVersion: version,
      hostname: os.hostname(),
    });
    console.log(`enrolled as device ${enrolled.deviceId} (${enrolled.deviceName})`);
  } catch (error) {
    if (error instanceof EnrolError) fail(error.message);
    throw error;
  }
}

async function fleet(command: Command): Promise<void> {
  const raw = await gather(command, [...COMMON, ...FLEET]);
  const settings = check(FleetSchema, { simulate: true, logLevel: 'warn', ...raw });
  const password = await readPassword(settings, process.env);
  setFsync(false); // simulated devices: their files need not survive a power cut
  const tap = new LogTap();
  const log = createLogger({ level: settings.logLevel, tap });
  const agents: Agent[] = [];
  const sharedBundles = new SharedBundles();
  for (let i = 0; i < settings.count; i++) {
    const deviceId = settings.deviceId + i;
    const folder = `device-${deviceId}`;
    const agent = new Agent(
      toAgentSettings({ ...settings, deviceId }, password, {
        stateDir: path.join(settings.stateDir, folder),
        outputDir: path.join(settings.outputDir, folder),
        simulate: true,
        stateInMemory: true,
        startDelayMs: Math.random() * settings.startSpread * 1000,
      }),
      { log, tap, agentVersion: version, flavor: agentFlavor, sharedBundles },
    );
    agents.push(agent);
  }
  await Promise.all(agents.map((a) => a.start()));
  const report = setInterval(() => {
    const total = { heartbeats: 0, errors: 0, alerts: 0, rejected: 0, push: 0 };
    for (const { stats } of agents) {
      total.heartbeats += stats.heartbeats;
      total.errors += stats.heartbeatErrors;
      total.alerts += stats.alertsSpooled;
      total.rejected += stats.alertsRejected;
      total.push += stats.pushConnected ? 1 : 0;
    }
    const memory = process.memoryUsage();
    const mib = (bytes: number) => Math.round(bytes / 1048576);
    console.log(
      JSON.stringify({
        fleet: agents.length,
        ...total,
        rss_mib: mib(memory.rss),
        heap_mib: mib(memory.heapUsed),
        external_mib: mib(memory.external),
        time: new Date().toISOString(),
      }),
    );
  }, 10_000);
  report.unref();
  onSignals(async () => {
    clearInterval(report);
    await Promise.all(agents.map((a) => a.stop()));
  });
}

export function buildProgram(): Command {
  const program = new Command('palisade-agent')
    .description('Palisade sensor agent: configuration sync, metrics and alert shipping')
    .version(version, '--version')
    .showHelpAfterError()
    .addHelpText(
      'after',
      '\nEvery flag has an environment twin: --device-id ↔ PALISADE_DEVICE_ID, and so on.\n' +
        'The password comes from --password-file or PALISADE_PASSWORD, never from a flag;\n' +
        `enrol reads its token from ${ENROL_TOKEN_ENV}, never from a flag.`,
    );
  addFlags(program.command('run').description("run this device's agent"), COMMON).action(
    (_options, command: Command) => run(command),
  );
  addFlags(
    program
      .command('enrol')
      .description(
        `exchange the enrolment token in ${ENROL_TOKEN_ENV} for this device's credentials`,
      ),
    ENROL,
  )
    .addOption(new Option('--token <token>').hideHelp())
    .action((_options, command: Command) => enrolDevice(command));
  addFlags(program.command('fleet').description('run N simulated devices in one process'), [
    ...COMMON,
    ...FLEET,
  ]).action((_options, command: Command) => fleet(command));
  return program;
}

function isMain(): boolean {
  // A release bundle is nothing but this command (and the single executable has no script).
  if (agentFlavor !== null) return true;
  const script = process.argv[1];
  if (!script) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (isMain()) {
  buildProgram()
    .parseAsync()
    .catch((error: unknown) => {
      console.error(`palisade-agent: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
}

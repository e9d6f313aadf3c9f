// Settings of `run` and `fleet`: every flag has an environment twin (PALISADE_…) and a key in
// the JSON config file (the flag's long name: "device-id", "reload-cmd", …). A flag beats its
// variable, which beats the file, which beats the default. Checked once; every problem is named.

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { AgentSettings } from './agent.js';
import { DEFAULT_SURICATA_LOG } from './eve/rule-errors.js';

/** The options both commands take, as commander parsed them (strings until checked). */
export type RawOptions = Record<string, unknown>;

const positiveInt = z.coerce
  .number({ error: 'a positive whole number is required' })
  .int()
  .positive();
const bool = z.union([
  z.boolean(),
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .transform((v) => ['true', '1', 'yes'].includes(v)),
]);
const commands = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => (Array.isArray(v) ? v : v.split('\n')).map((c) => c.trim()).filter(Boolean));

export const SettingsSchema = z.object({
  server: z.url({ message: 'an http(s) URL of the Palisade server is required' }),
  deviceId: positiveInt,
  passwordFile: z.string().optional(),
  outputDir: z.string({ error: 'a folder is required' }).min(1),
  stateDir: z.string({ error: 'a folder is required' }).min(1),
  reloadCmd: commands.default([]),
  reloadTimeout: z.coerce.number().positive().default(60),
  eve: z.string().min(1).optional(),
  eveStart: z.enum(['beginning', 'end']).default('end'),
  simulate: bool.default(false),
  simulateRate: z.coerce.number().min(0).default(0.2),
  simulateBursts: z.coerce.number().min(0).default(6),
  diskPath: z.string().default('/'),
  batchSize: positiveInt.max(10_000).default(500),
  batchDelay: positiveInt.default(1000),
  spoolMaxMb: positiveInt.default(512),
  heartbeat: z.coerce.number().positive().optional(),
  push: bool.default(true),
  logLevel: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  installDir: z.string().min(1).optional(),
  upgradeTimeout: z.coerce.number().positive().default(120),
  firewallConfirm: z.coerce.number().min(0).default(120),
  firewallRestoreCmd: z.string().min(1).optional(),
  nft: z.string().min(1).default('nft'),
  firewallHits: z.coerce.number().min(0).default(300),
  suricataLog: z.string().default(DEFAULT_SURICATA_LOG),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const FleetSchema = SettingsSchema.extend({
  count: positiveInt.max(100_000),
  startSpread: z.coerce.number().min(0).default(10),
});

function camel(key: string): string {
  return key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The config file's keys in camelCase; kebab-case (the flag names) and camelCase both work. */
export async function readConfigFile(file: string): Promise<RawOptions> {
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${file}: the config file must hold a JSON object`);
  }
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [camel(k), v]));
}

/** Flag/env values where given, then the file's values, then defaults. */
export function mergeOptions(
  given: RawOptions,
  sources: Record<string, string | undefined>,
  file: RawOptions,
): RawOptions {
  const merged: RawOptions = { ...file };
  for (const [key, value] of Object.entries(given)) {
    const source = sources[key];
    if (source === 'cli' || source === 'env' || !(key in file)) merged[key] = value;
  }
  return merged;
}

/** Problems as lines `--flag: message`. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const key = String(issue.path[0] ?? '');
    const flag = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    return `--${flag}: ${issue.message}`;
  });
}

/** The device password: PALISADE_PASSWORD, else the first line of the password file. */
export async function readPassword(
  settings: { passwordFile?: string | undefined },
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const fromEnv = env.PALISADE_PASSWORD;
  if (fromEnv) return fromEnv;
  if (!settings.passwordFile) {
    throw new Error('no password: give --password-file (or set PALISADE_PASSWORD)');
  }
  const text = await readFile(settings.passwordFile, 'utf8');
  const password = text.split('\n')[0]?.trim() ?? '';
  if (password === '') throw new Error(`${settings.passwordFile} is empty`);
  return password;
}

export function toAgentSettings(
  settings: Settings,
  password: string,
  overrides: Partial<AgentSettings> = {},
): AgentSettings {
  return {
    server: settings.server,
    deviceId: settings.deviceId,
    password,
    outputDir: settings.outputDir,
    stateDir: settings.stateDir,
    reloadCommands: settings.reloadCmd,
    reloadTimeoutMs: settings.reloadTimeout * 1000,
    eve: settings.eve ?? null,
    eveStartAtEnd: settings.eveStart === 'end',
    simulate: settings.simulate,
    simulateRate: settings.simulateRate,
    simulateBursts: settings.simulateBursts,
    diskPath: settings.diskPath,
    batchSize: settings.batchSize,
    batchDelayMs: settings.batchDelay,
    spoolMaxBytes: settings.spoolMaxMb * 1024 * 1024,
    heartbeatSeconds: settings.heartbeat ?? null,
    push: settings.push,
    startDelayMs: 0,
    installDir: settings.installDir ?? null,
    upgradeTimeoutMs: settings.upgradeTimeout * 1000,
    firewallConfirmMs: settings.firewallConfirm * 1000,
    firewallRestoreCommand: settings.firewallRestoreCmd,
    nft: settings.nft,
    firewallHitsMs: settings.firewallHits * 1000,
    suricataLog: settings.suricataLog === '' ? null : settings.suricataLog,
    ...overrides,
  };
}

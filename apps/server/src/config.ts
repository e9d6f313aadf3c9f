import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NewPassword } from '@palisade/contract';
import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''], {
    message: 'must be true or false',
  })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Names proxy-addr knows for whole address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const width = version === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= width;
}

const TRUST_PROXY_MESSAGE =
  'must be false, true (one proxy), a number of proxies, or a comma-separated list of proxy addresses and networks';

/**
 * Which hops of X-Forwarded-For to believe. Never "all": the client writes the left end of the
 * header itself, so the address is taken from the right, past the proxies named here.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((raw, context): false | number | string[] => {
    const value = raw.trim().toLowerCase();
    if (['', 'false', '0', 'no'].includes(value)) return false;
    if (['true', 'yes'].includes(value)) return 1;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 32) return hops;
    } else {
      const entries = value.split(',').map((entry) => entry.trim());
      if (entries.every(isProxyAddress)) return entries;
    }
    context.addIssue({ code: 'custom', message: TRUST_PROXY_MESSAGE });
    return z.NEVER;
  });

/** The agent build of this checkout (apps/agent/dist-release), from src/ or dist/ alike. */
export const DEFAULT_AGENT_RELEASE_DIR = fileURLToPath(
  new URL('../../agent/dist-release', import.meta.url),
);

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const EnvSchema = z.object({
  PORT: z.coerce
    .number({ message: 'must be a port number (0-65535)' })
    .int('must be a port number (0-65535)')
    .min(0, 'must be a port number (0-65535)')
    .max(65535, 'must be a port number (0-65535)')
    .default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  AGENT_RELEASE_DIR: optionalText.pipe(
    z
      .string()
      .refine((value) => !value.includes('\0'), 'must be a folder path')
      .optional(),
  ),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  SECRET_KEY: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  ACCESS_TOKEN_EXPIRE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(60 * 24 * 365)
    .default(60 * 24 * 8),
  AUTH_DISABLED: booleanFlag.default(false),
  TRUST_PROXY: trustProxy,
  SERVE_SOURCEMAPS: booleanFlag.default(false),
  DEMO_FLEET: z.coerce
    .number({ message: 'must be a number of devices' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(1000, 'must be at most 1000')
    .default(0),
  ALERT_RETENTION_DAYS: z.coerce
    .number({ message: 'must be a number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1')
    .default(90),
  METRIC_RETENTION_DAYS: z.coerce
    .number({ message: 'must be a number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1')
    .default(30),
  HEALTH_DROP_PERCENT: z.coerce
    .number({ message: 'must be a percentage' })
    .min(0, 'must be at least 0')
    .max(100, 'must be at most 100')
    .default(1),
  AUDIT_RETENTION_DAYS: z.coerce
    .number({ message: 'must be a number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1')
    .default(365),
  JOB_CHECK_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1')
    .max(3600, 'must be at most 3600')
    .default(60),
  IMPORT_MAX_BYTES: z.coerce
    .number({ message: 'must be a number of bytes' })
    .int('must be a whole number of bytes')
    .min(1024, 'must be at least 1024')
    .default(256 * 1024 * 1024),
  RULE_SOURCES_PUBLIC_ONLY: booleanFlag.default(false),
  RULE_SOURCES_TIMEOUT_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1')
    .max(3600, 'must be at most 3600')
    .default(60),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  SMTP_FROM: optionalText,
  PUBLIC_URL: optionalText.pipe(z.url({ message: 'must be a URL' }).optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ADMIN_EMAIL: optionalText.pipe(z.email({ message: 'must be an e-mail address' }).optional()),
  ADMIN_PASSWORD: optionalText.pipe(NewPassword.optional()),
});

export interface Config {
  port: number;
  host: string;
  /** Absolute: DATA_DIR resolved against the working directory once, at start. */
  dataDir: string;
  /** Absolute: the agent build served under /agent/download/ (its manifest.json and files). */
  agentReleaseDir: string;
  /** Undefined: embedded PGlite in `${dataDir}/pglite`. */
  databaseUrl: string | undefined;
  /** Undefined: generated once and kept in `${dataDir}/secret_key`. */
  secretKey: string | undefined;
  accessTokenExpireMinutes: number;
  authDisabled: boolean;
  /**
   * Behind reverse proxies: false (the socket's address), a number of proxy hops, or the
   * proxies' addresses and networks; the client is the first untrusted address from the right.
   */
  trustProxy: false | number | string[];
  /** Serve the console's source maps (`*.map`); off, they answer 404. */
  serveSourceMaps: boolean;
  /** Simulated demo sensors started with the server (0: none). */
  demoFleet: number;
  /** Alerts older than this many days are deleted. */
  alertRetentionDays: number;
  /** Metric samples and agent log lines older than this many days are deleted. */
  metricRetentionDays: number;
  /** Audit log records older than this many days are deleted. */
  auditRetentionDays: number;
  /** A sensor dropping a larger share of its packets (percent) shows as degraded. */
  healthDropPercent: number;
  /** How often each replica looks for a due scheduled job (retention), in seconds. */
  jobCheckSeconds: number;
  /** What one rules import may unpack to, all its files together, in bytes. */
  importMaxBytes: number;
  /** Rule sources may be fetched only from public addresses (not loopback or private ones). */
  ruleSourcesPublicOnly: boolean;
  /** A rule source's fetch fails when connecting, or waiting for the next bytes, takes longer. */
  ruleSourcesTimeoutSeconds: number;
  smtpUrl: string | undefined;
  smtpFrom: string | undefined;
  publicUrl: string;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  adminEmail: string | undefined;
  adminPassword: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * The only reader of process.env: parses it once and reports every bad variable together.
 * Path settings are resolved against `cwd` here, so nothing later depends on the working folder.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        return `${name}=${shownValue(name, env[name])}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    agentReleaseDir: path.resolve(cwd, e.AGENT_RELEASE_DIR ?? DEFAULT_AGENT_RELEASE_DIR),
    databaseUrl: e.DATABASE_URL,
    secretKey: e.SECRET_KEY,
    accessTokenExpireMinutes: e.ACCESS_TOKEN_EXPIRE_MINUTES,
    authDisabled: e.AUTH_DISABLED,
    trustProxy: e.TRUST_PROXY,
    serveSourceMaps: e.SERVE_SOURCEMAPS,
    demoFleet: e.DEMO_FLEET,
    alertRetentionDays: e.ALERT_RETENTION_DAYS,
    metricRetentionDays: e.METRIC_RETENTION_DAYS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    healthDropPercent: e.HEALTH_DROP_PERCENT,
    jobCheckSeconds: e.JOB_CHECK_SECONDS,
    importMaxBytes: e.IMPORT_MAX_BYTES,
    ruleSourcesPublicOnly: e.RULE_SOURCES_PUBLIC_ONLY,
    ruleSourcesTimeoutSeconds: e.RULE_SOURCES_TIMEOUT_SECONDS,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
  };
}

const SECRET_VARIABLES = new Set(['SECRET_KEY', 'ADMIN_PASSWORD']);

/** A bad value as it may be printed: secrets hidden, URL passwords masked. */
function shownValue(name: string, value: string | undefined): string {
  if (value === undefined) return '(unset)';
  if (SECRET_VARIABLES.has(name)) return '(hidden)';
  return JSON.stringify(value.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@'));
}

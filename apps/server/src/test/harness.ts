import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.js';
import { bootstrapAdministrator } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { countStatements, type StatementCounter } from '../db/statement-counter.js';
import type { Mail, Mailer } from '../lib/mailer.js';
import {
  onTestPostgres,
  PGLITE_TEST_IMAGE,
  PGLITE_TEST_MIGRATED_IMAGE,
  POSTGRES_TEST_TEMPLATE,
  TEST_POSTGRES_URL,
} from './scratch-images.js';
import { scratchDbName } from '../../../../testing/scratch-db.mjs';

export { TEST_POSTGRES_URL };

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'Admin#2026';

export interface ScratchDatabase {
  db: Database;
  /** Set on the PostgreSQL run: the scratch database's URL, for a server started as a process. */
  url?: string;
  /** Closes and, on the server, drops the scratch database. */
  drop(): Promise<void>;
}

const imageReads = new Map<string, Promise<Blob | undefined>>();

/**
 * A PGlite data folder the run's globalSetup made, named by `variable` (read once a worker).
 * A read is kept for the files after it: the images never change during a run.
 */
function setUpImage(variable: string): Promise<Blob | undefined> {
  let read = imageReads.get(variable);
  if (!read) {
    const file = process.env[variable];
    read = file ? readFile(file).then((bytes) => new Blob([bytes])) : Promise.resolve(undefined);
    imageReads.set(variable, read);
  }
  return read;
}

/**
 * A fresh database: PGlite (in memory, or in `pgliteDataDir` as `npm start` keeps it), or a
 * scratch database on the PostgreSQL server. Empty, or with `migrated` the migrations already
 * applied where the run's globalSetup made such a database to start from (else empty all the
 * same: buildApp migrates it).
 */
export async function createScratchDatabase(
  options: { pgliteDataDir?: string; migrated?: boolean } = {},
): Promise<ScratchDatabase> {
  const { pgliteDataDir, migrated = false } = options;
  if (process.env['TEST_DB'] !== 'postgres') {
    const inMemory = pgliteDataDir === undefined;
    const image = inMemory
      ? ((migrated ? await setUpImage(PGLITE_TEST_MIGRATED_IMAGE) : undefined) ??
        (await setUpImage(PGLITE_TEST_IMAGE)))
      : undefined;
    const db = await openDatabase({
      databaseUrl: undefined,
      dataDir: pgliteDataDir ?? '',
      inMemory,
      image,
    });
    return { db, drop: () => db.close() };
  }
  const name = scratchDbName();
  const template = migrated ? process.env[POSTGRES_TEST_TEMPLATE] : undefined;
  await onTestPostgres(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close();
      await onTestPostgres(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export interface TestServer {
  app: FastifyInstance;
  db: Database;
  dataDir: string;
  /** Mail the server "sent" (unless a real SMTP_URL was given). */
  outbox: Mail[];
  /** The statements the server's database runs during a piece of work (a request). */
  statements: StatementCounter;
  /** On the PostgreSQL run: the scratch database's URL (for a second replica's connections). */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * The real server (buildApp) on a scratch database and data folder, with the first
 * Administrator created as on a first start. The database starts migrated where the run made one
 * to copy (a first start's own migrations are main.test.ts's to test). env overrides
 * configuration variables.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: {
    webDist?: string;
    captureMail?: boolean;
    /** PGlite in the data folder, as the console keeps it (benchmarks), not in memory. */
    pgliteOnDisk?: boolean;
  } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'palisade-test-'));
  const scratch = await createScratchDatabase(
    options.pgliteOnDisk ? { pgliteDataDir: dataDir } : { migrated: true },
  );
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://console.test',
    // Never the checkout's own build: whether one exists depends on what ran before.
    AGENT_RELEASE_DIR: path.join(dataDir, 'agent-release'),
    ...env,
  });
  const outbox: Mail[] = [];
  const capture: Mailer = {
    send: (mail) => {
      outbox.push(mail);
      return Promise.resolve();
    },
  };
  const { db, counter } = countStatements(scratch.db);
  const app = await buildApp({
    config,
    db,
    mailer: options.captureMail === false ? undefined : capture,
    webDist: options.webDist ?? path.join(dataDir, 'no-console'),
  });
  await bootstrapAdministrator(app);
  await app.ready();
  return {
    app,
    db,
    dataDir,
    outbox,
    statements: counter,
    ...(scratch.url ? { databaseUrl: scratch.url } : {}),
    async close() {
      await app.close();
      await scratch.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the real form-encoded call; returns the bearer header to send. */
export async function signIn(
  app: FastifyInstance,
  email: string,
  password: string,
  remoteAddress = '127.0.0.1',
): Promise<{ authorization: string }> {
  const response = await login(app, email, password, remoteAddress);
  if (response.statusCode !== 200) throw new Error(`sign-in of ${email} failed: ${response.body}`);
  return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
}

export function login(
  app: FastifyInstance,
  username: string,
  password: string,
  remoteAddress = '127.0.0.1',
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/v1/login/access-token',
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password }).toString(),
  });
}

export const api = (app: FastifyInstance, options: InjectOptions & { url: string }) =>
  app.inject({ ...options, url: `/api/v1${options.url}` });

/** Polls until `check` returns a value (not undefined); fails naming `what` after 20 s. */
export async function until<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

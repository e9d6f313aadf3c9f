import type { ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { bootstrapAdministrator } from './bootstrap.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/client.js';
import { startDemoFleet } from './demo/demo-fleet.js';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}

const config = readConfig();
const logger = {
  level: config.logLevel,
  redact: ['req.headers.authorization', 'req.headers.cookie'],
  ...(process.stdout.isTTY
    ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss' } } }
    : {}),
};

const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const app = await buildApp({ config, db, logger });
const first = await bootstrapAdministrator(app);
await app.listen({ port: config.port, host: config.host });

const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
const { port } = app.server.address() as AddressInfo;
const lines = [
  '',
  `Palisade is running at http://${shownHost}:${port}/`,
  `Database: ${db.kind === 'pglite' ? `embedded (${config.dataDir}/pglite)` : 'PostgreSQL server (DATABASE_URL)'}`,
];
if (first.created) {
  lines.push(`First start: sign in as ${first.email}`);
  lines.push(
    first.generatedPassword
      ? `  with the generated password ${first.generatedPassword}  (shown once; change it under Account)`
      : '  with the password from ADMIN_PASSWORD',
  );
}
let demoFleet: ChildProcess | undefined;
if (config.demoFleet > 0) {
  const reachable = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  demoFleet = await startDemoFleet(app, config.demoFleet, `http://${reachable}:${port}`);
  if (demoFleet) {
    lines.push(
      `Demo fleet: ${config.demoFleet} simulated sensors (demo-sensor-*) are checking in.`,
    );
  }
}
if (config.authDisabled) {
  lines.push('WARNING: AUTH_DISABLED is on: anyone reaching this port is an Administrator.');
}
console.log(`${lines.join('\n')}\n`);

// SIGINT/SIGTERM: stop accepting, let in-flight requests finish, then close the database.
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'shutting down after an error');
  else app.log.info({ signal }, 'shutting down');
  demoFleet?.kill('SIGTERM');
  await app.close();
  await db.close();
});

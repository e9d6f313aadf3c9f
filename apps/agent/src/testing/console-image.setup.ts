// Vitest globalSetup of the projects whose tests start the server as a process (startConsole,
// ServerProcess). A server's first start on an empty data folder spends most of its time making
// the embedded database (initdb in a child process, then the migrations): 14–15 s of a busy
// 2-core machine, where a start on a folder that already holds one took 5 s. So the database
// of one first start is made here, once per run, and each server started on an empty folder
// begins from a copy of it: the same server restarted, as it is after every first start. The
// first start itself is tested by the server's main.test.ts and e2e/first-start.mjs.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CONSOLE_IMAGE, ServerProcess, embeddedDatabaseIn, freePort } from './processes.js';

export default async function makeConsoleImage(): Promise<() => Promise<void>> {
  // Another project of this run made it already (each project runs its own global setup).
  if (process.env[CONSOLE_IMAGE]) return () => Promise.resolve();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-console-image-'));
  const dataDir = path.join(dir, 'data');
  const server = new ServerProcess(await freePort(), dataDir, path.join(dir, 'server.log'));
  await server.start();
  await server.stop();
  process.env[CONSOLE_IMAGE] = embeddedDatabaseIn(dataDir);
  return async () => {
    delete process.env[CONSOLE_IMAGE];
    await rm(dir, { recursive: true, force: true });
  };
}

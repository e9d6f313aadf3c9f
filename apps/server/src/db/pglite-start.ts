import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';

/**
 * The embedded database's buffer cache. PostgreSQL's default of 128 MB grew PGlite's WASM heap
 * from its fixed initial 128 MB to 189 MB at start (about 110 MB more resident). With the data
 * folder on disk, a page that does not fit here is read from the kernel's page cache, not the
 * disk: 32 MB holds the hot pages (devices, policies, the newest alerts' indexes) of a fleet of
 * thousands. See "Memory" in docs/operations.md.
 */
export const PGLITE_SHARED_BUFFERS = '32MB';

export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  '-c',
  `shared_buffers=${PGLITE_SHARED_BUFFERS}`,
];

/**
 * PostgreSQL's WebAssembly runs on V8's baseline compiler (Liftoff) only. By default V8
 * recompiles the functions a start runs most with its optimising compiler, in worker threads,
 * and that compiler's scratch memory (42 MB at its peak for one start) stays in those threads'
 * malloc arenas afterwards: some 80 MB of an idle server's 285 MB. The same SQL took the same
 * CPU time on baseline code (see "Memory" in docs/operations.md). V8 reads the flag when it
 * compiles a module, so it is set before the first PGlite opens.
 */
function baselineWasmOnly(): void {
  v8.setFlagsFromString('--liftoff-only');
}

const PGLITE_MODULE = createRequire(import.meta.url).resolve('@electric-sql/pglite');

/**
 * Opens the embedded database in `folder` (in memory without one). A folder without a database
 * is first initialised by a short-lived child process: initdb runs a second PGlite instance and
 * leaves some 500 MB of WASM memory and buffers that V8 collects only when it next needs to,
 * which at an idle server could be never.
 */
export async function startPglite(folder: string | undefined): Promise<PGlite> {
  baselineWasmOnly();
  if (!folder) return PGlite.create({ startParams: PGLITE_START_PARAMS });
  await mkdir(folder, { recursive: true });
  if (!existsSync(path.join(folder, 'PG_VERSION'))) await initialiseInChild(folder);
  return PGlite.create(folder, { startParams: PGLITE_START_PARAMS });
}

const INITIALISE = `
const [modulePath, folder, startParams] = process.argv.slice(1);
require(modulePath)
  .PGlite.create(folder, { startParams: JSON.parse(startParams) })
  .then((db) => db.close());
`;

async function initialiseInChild(folder: string): Promise<void> {
  await promisify(execFile)(process.execPath, [
    '-e',
    INITIALISE,
    PGLITE_MODULE,
    folder,
    JSON.stringify(PGLITE_START_PARAMS),
  ]);
}

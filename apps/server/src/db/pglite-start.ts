import { execFile } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
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
 * How much a WebAssembly function runs before V8 recompiles it with its optimising compiler
 * (TurboFan): a hundred times V8's default (1,800,000, a rough count of bytes executed).
 *
 * - With V8's default, a start and its migrations tier up thousands of PostgreSQL's functions,
 *   in worker threads whose malloc arenas keep the compiler's scratch memory afterwards: a
 *   first start idled at 311 MB (282–322).
 * - On the baseline compiler alone (`--liftoff-only`, used before) it idled at 236 MB, but the
 *   functions a fleet keeps busy stayed slow: heartbeats 4,900–5,200 a second, alert ingest
 *   6,900 rows a second.
 * - With this budget only what sustained work runs that much is optimised: the first start
 *   idles at 258–287 MB, heartbeats 6,000–6,700 a second, ingest 8,600 rows a second (V8's
 *   default: 6,300–6,400 and 8,900). Measured in docs/operations.md ("Memory"). Under a
 *   1,000-device fleet it holds 100–150 MB more than baseline code ("Memory for a fleet").
 *
 * V8 reads the flag when it compiles a module, so it is set before the first PGlite opens.
 */
const WASM_TIERING_BUDGET = 180_000_000;

function tierUpOnlyHotWasm(): void {
  v8.setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
}

const PGLITE_MODULE = createRequire(import.meta.url).resolve('@electric-sql/pglite');

/**
 * Opens the embedded database in `folder` (in memory without one, started from `image` when
 * given: a data folder `dumpDataDir` made, which skips initdb). A folder without a database
 * is first initialised by a short-lived child process: initdb runs a second PGlite instance and
 * leaves some 500 MB of WASM memory and buffers that V8 collects only when it next needs to,
 * which at an idle server could be never.
 */
export async function startPglite(
  folder: string | undefined,
  options: { image?: Blob } = {},
): Promise<PGlite> {
  tierUpOnlyHotWasm();
  if (!folder) {
    return PGlite.create({
      startParams: PGLITE_START_PARAMS,
      ...(options.image ? { loadDataDir: options.image } : {}),
    });
  }
  await mkdir(folder, { recursive: true });
  if (!existsSync(path.join(folder, 'PG_VERSION'))) await initialiseInChild(folder);
  const db = await PGlite.create(folder, { startParams: PGLITE_START_PARAMS });
  answerMissingFilesWithoutExceptions(db);
  return db;
}

/** The parts of emscripten's NODEFS (the data folder's file system) used below. */
interface NodeFileSystem {
  node_ops: { lookup(this: void, parent: unknown, name: string): unknown };
  realPath(this: void, node: unknown): string;
  convertNodeCode(this: void, error: { code: string }): number;
}

/**
 * Makes PGlite's file system answer "no such file" without an exception from Node.
 *
 * PostgreSQL checks that an index's free space map exists before every B-tree page split (an
 * index gets that file only from VACUUM), so ingest looks up a missing file about 110 times per
 * 1,000 alerts (an alert enters eleven of device_alerts' indexes). Emscripten's NODEFS looks a
 * name up with `lstatSync`, which throws for a missing file: an Error that Node builds with its
 * message and stack trace. Asked not to throw, a missing lookup costs 19–32 µs instead of
 * 38–71 µs (10,000 lookups, seven alternations): 2–5 ms of CPU per 1,000 alerts ingested, about
 * 1–2% of the server's. Found files and other errors go through NODEFS's own lookup as before.
 * A PGlite whose file system is not the one expected is left as it is (a test says so).
 */
function answerMissingFilesWithoutExceptions(db: PGlite): void {
  const module = db.Module as unknown as {
    NODEFS?: Partial<NodeFileSystem>;
    FS: { ErrnoError: new (errno: number) => Error };
  };
  const nodeFs = module.NODEFS;
  if (
    typeof nodeFs?.node_ops?.lookup !== 'function' ||
    typeof nodeFs.realPath !== 'function' ||
    typeof nodeFs.convertNodeCode !== 'function'
  ) {
    return;
  }
  const { node_ops: operations, realPath } = nodeFs as NodeFileSystem;
  const lookUp = operations.lookup;
  const noSuchFile = (nodeFs as NodeFileSystem).convertNodeCode({ code: 'ENOENT' });
  const lookupWithoutThrowing = (parent: unknown, name: string) => {
    let missing: boolean;
    try {
      missing =
        lstatSync(path.join(realPath(parent), name), { throwIfNoEntry: false }) === undefined;
    } catch {
      missing = false; // another error: NODEFS's own lookup reports it in its own terms
    }
    if (missing) throw new module.FS.ErrnoError(noSuchFile);
    return lookUp(parent, name);
  };
  operations.lookup = lookupWithoutThrowing;
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

// The agent as the server hands it out: apps/agent/dist-release/ holds a single executable for
// linux-x64 (Node's single-executable application: the sensor needs no Node), one bundled .mjs
// for sensors that have Node, the install helpers, a .sha256 beside each and manifest.json.
// `npm run build` runs it after `tsc -b`; so does `npm start`, hence the executable is only
// rebuilt when its inputs changed (that step copies and rewrites the 100 MB node binary).

import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const agentRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RELEASE_DIR = path.join(agentRoot, 'dist-release');
/** Intermediate files of the executable (bundle, blob, stamp); not shipped. */
const SEA_WORK_DIR = path.join(agentRoot, 'dist', 'sea');
const NODE_RANGE = '>=20.19';
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
export const EXECUTABLE_NAME = `palisade-agent-${process.platform}-${process.arch}`;
export const MODULE_NAME = 'palisade-agent.mjs';
const SCRIPTS = ['install.sh', 'upgrade-guard.sh'];

export async function packageVersion() {
  const text = await readFile(path.join(agentRoot, 'package.json'), 'utf8');
  return JSON.parse(text).version;
}

/**
 * One file holding the agent and all it imports. `node-module`: ESM, run as
 * `node palisade-agent.mjs …`. `executable`: CommonJS, the form Node 20's SEA runs.
 * The version and flavor are baked in: a bundle has no package.json to read.
 */
export async function bundleAgent({ version, outfile, flavor = 'node-module' }) {
  const esm = flavor === 'node-module';
  await build({
    entryPoints: [path.join(agentRoot, 'src/cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20.19',
    format: esm ? 'esm' : 'cjs',
    conditions: ['palisade-source'],
    legalComments: 'none',
    logLevel: 'warning',
    define: {
      PALISADE_AGENT_VERSION: JSON.stringify(version),
      PALISADE_AGENT_FLAVOR: JSON.stringify(flavor),
      // CommonJS has no import.meta; the banner below gives the file's own URL instead.
      ...(esm ? {} : { 'import.meta.url': '__palisadeFileUrl' }),
    },
    banner: {
      js: esm
        ? // The bundled CommonJS packages (pino, commander) call require() for node: modules.
          "import { createRequire as __palisadeRequire } from 'node:module';\n" +
          'const require = __palisadeRequire(import.meta.url);'
        : "const __palisadeFileUrl = require('node:url').pathToFileURL(__filename).href;",
    },
  });
}

async function sha256File(file) {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

/** Writes `file` whole or not at all: the server may be serving the folder meanwhile. */
async function writeAtomically(file, data, mode = 0o644) {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, data, { mode });
  await chmod(temporary, mode);
  await rename(temporary, file);
}

/** Runs quietly; what the program said is shown only when it fails. */
function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status === 0) return;
  process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
  throw new Error(`${command} ${args.join(' ')} failed`);
}

/**
 * postject's ELF library warns, through console.warn, of each note section of Node's binary it
 * cannot name (nine lines starting "warning:" on every `npm start` that rebuilds the agent); the
 * executable it writes runs and is tested. Other warnings still show.
 */
async function withoutNoteWarnings(work) {
  const warn = console.warn;
  console.warn = (...args) => {
    if (!/Can't find string offset for section name/.test(String(args[0]))) warn(...args);
  };
  try {
    return await work();
  } finally {
    console.warn = warn;
  }
}

/**
 * bundle (CommonJS) → `node --experimental-sea-config` blob → copy of this node → postject.
 * Skipped when the bundle, the node binary and postject are those of the last build and the
 * executable it made is still there, untouched.
 */
async function buildExecutable({ version, outfile }) {
  await mkdir(SEA_WORK_DIR, { recursive: true });
  const bundle = path.join(SEA_WORK_DIR, 'palisade-agent.cjs');
  await bundleAgent({ version, outfile: bundle, flavor: 'executable' });
  const postjectVersion = createRequire(import.meta.url)('postject/package.json').version;
  const nodeBinary = await stat(process.execPath);
  const key = createHash('sha256')
    .update(await readFile(bundle))
    .update(JSON.stringify([process.execPath, process.version, nodeBinary.size, postjectVersion]))
    .digest('hex');
  const stampFile = path.join(SEA_WORK_DIR, 'stamp.json');
  const stamp = existsSync(stampFile) ? JSON.parse(await readFile(stampFile, 'utf8')) : null;
  const current = existsSync(outfile) ? await stat(outfile) : null;
  if (stamp?.key === key && current?.size === stamp.size && current.mtimeMs === stamp.mtimeMs) {
    return { sha256: stamp.sha256, size: stamp.size, rebuilt: false };
  }

  const blob = path.join(SEA_WORK_DIR, 'sea-prep.blob');
  const config = path.join(SEA_WORK_DIR, 'sea-config.json');
  await writeFile(
    config,
    JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true }),
  );
  run(process.execPath, ['--experimental-sea-config', config]);
  const { inject } = createRequire(import.meta.url)('postject');
  const temporary = `${outfile}.${process.pid}.tmp`;
  await copyFile(process.execPath, temporary);
  await chmod(temporary, 0o755);
  const blobData = await readFile(blob);
  await withoutNoteWarnings(() =>
    inject(temporary, 'NODE_SEA_BLOB', blobData, { sentinelFuse: SEA_FUSE }),
  );
  await rename(temporary, outfile);
  const made = await stat(outfile);
  const sha256 = await sha256File(outfile);
  await writeFile(
    stampFile,
    JSON.stringify({ key, sha256, size: made.size, mtimeMs: made.mtimeMs }, null, 2),
  );
  return { sha256, size: made.size, rebuilt: true };
}

/** The install helpers, or a stand-in that says it is one while they are not written. */
async function scriptText(name) {
  const source = path.join(agentRoot, 'install', name);
  if (existsSync(source)) return readFile(source);
  return Buffer.from(
    `#!/bin/sh\n# Stand-in: apps/agent/install/${name} is not written yet.\n` +
      `echo "${name}: not part of this build" >&2\nexit 1\n`,
  );
}

async function fileEntry(outDir, name, fields, known) {
  const file = path.join(outDir, name);
  const sha256 = known?.sha256 ?? (await sha256File(file));
  const size = known?.size ?? (await stat(file)).size;
  await writeAtomically(`${file}.sha256`, `${sha256}  ${name}\n`);
  return { name, ...fields, size, sha256 };
}

/**
 * A whole release folder: the .mjs, the install helpers and (unless `executable: false`, as
 * tests that only need another version pass) the single executable, then manifest.json last,
 * so that a reader never sees a manifest naming files not yet written.
 */
export async function buildRelease({
  outDir = RELEASE_DIR,
  version,
  // Elsewhere (a developer's Mac) injecting into node needs other steps; sensors run Linux.
  executable = process.platform === 'linux',
  protocol,
} = {}) {
  version ??= await packageVersion();
  protocol ??= (await import('@palisade/contract')).AGENT_PROTOCOL_VERSION;
  await mkdir(outDir, { recursive: true });
  const files = [];

  if (executable) {
    const made = await buildExecutable({ version, outfile: path.join(outDir, EXECUTABLE_NAME) });
    const platform = `${process.platform}-${process.arch}`;
    files.push(await fileEntry(outDir, EXECUTABLE_NAME, { kind: 'executable', platform }, made));
  }

  const moduleFile = path.join(outDir, MODULE_NAME);
  const moduleTemporary = `${moduleFile}.${process.pid}.tmp.mjs`;
  await bundleAgent({ version, outfile: moduleTemporary, flavor: 'node-module' });
  await rename(moduleTemporary, moduleFile);
  files.push(await fileEntry(outDir, MODULE_NAME, { kind: 'node-module', node: NODE_RANGE }));

  for (const name of SCRIPTS) {
    await writeAtomically(path.join(outDir, name), await scriptText(name), 0o755);
    files.push(await fileEntry(outDir, name, { kind: 'script' }));
  }

  const manifest = { version, protocol, files };
  await writeAtomically(
    path.join(outDir, 'manifest.json'),
    `${JSON.stringify(manifest, null, 2)}\n`,
  );
  return manifest;
}

async function main() {
  const started = Date.now();
  const manifest = await buildRelease();
  const shown = (bytes) =>
    bytes < 1024 * 1024
      ? `${Math.ceil(bytes / 1024)} kB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const sizes = manifest.files.map((f) => `${f.name} ${shown(f.size)}`).join(', ');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`agent ${manifest.version} release in ${seconds} s: ${sizes}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`agent release: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}

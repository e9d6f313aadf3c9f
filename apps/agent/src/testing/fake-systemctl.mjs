#!/usr/bin/env node
// A stand-in for `systemctl` in tests of install.sh: `SYSTEMCTL=…/fake-systemctl.mjs`.
// Every call is appended to FAKE_SYSTEMCTL_DIR/calls.log (one line, arguments joined by spaces).
// With FAKE_SYSTEMCTL_START=no that is all it does. Otherwise `start`, `restart`,
// `enable --now`, `stop` and `disable --now` really run the unit found under
// FAKE_SYSTEMCTL_ROOT/etc/systemd/system: a detached supervisor runs ExecStartPre, copies each
// LoadCredential= file into a fresh CREDENTIALS_DIRECTORY, runs ExecStart with `${…}` expanded
// and starts it again RestartSec after it exits (FAKE_SYSTEMCTL_RESTART_SEC overrides, so tests
// need not wait 5 s). User= and the sandboxing options are ignored: tests run as one user.
// Test code only.

import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const stateDir = process.env.FAKE_SYSTEMCTL_DIR ?? path.join(os.tmpdir(), 'fake-systemctl');
const unitRoot = process.env.FAKE_SYSTEMCTL_ROOT ?? '/';
const runUnits = process.env.FAKE_SYSTEMCTL_START !== 'no';

const pidFile = (unit) => path.join(stateDir, `${unit}.pid`);
const enabledFile = (unit) => path.join(stateDir, `${unit}.enabled`);
/** Record-only mode: a unit "started" is marked active, so `is-active` answers as it would. */
const activeFile = (unit) => path.join(stateDir, `${unit}.active`);
const unitFile = (unit) => path.join(unitRoot, 'etc/systemd/system', unit);

/** `[Service]` and `[Unit]` keys of a unit file; repeated keys keep every value. */
export function parseUnit(text) {
  const keys = new Map();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';') || line.startsWith('[')) {
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim();
    keys.set(key, [...(keys.get(key) ?? []), line.slice(eq + 1).trim()]);
  }
  return keys;
}

/** A command line split the way systemd does for the simple cases: spaces, '…' and "…". */
export function splitCommand(line, env) {
  const expanded = line.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => env[a ?? b] ?? '');
  const words = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const match of expanded.matchAll(pattern)) {
    words.push(match[1]?.replace(/\\(.)/g, '$1') ?? match[2] ?? match[3]);
  }
  // A leading '-' (failure ignored) or '@' is systemd syntax, not part of the path.
  if (words[0]) words[0] = words[0].replace(/^[-@:+!]+/, '');
  return words;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function runningPid(unit) {
  if (!existsSync(pidFile(unit))) return undefined;
  const pid = Number(readFileSync(pidFile(unit), 'utf8'));
  return pid > 0 && alive(pid) ? pid : undefined;
}

function start(unit) {
  if (!runUnits) return writeFileSync(activeFile(unit), '');
  if (runningPid(unit)) return;
  if (!existsSync(unitFile(unit))) {
    console.error(`Failed to start ${unit}: Unit ${unit} not found.`);
    process.exit(5);
  }
  const log = openSync(path.join(stateDir, `${unit}.log`), 'a');
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '__supervise', unit], {
    detached: true,
    stdio: ['ignore', log, log],
    env: process.env,
  });
  writeFileSync(pidFile(unit), String(child.pid));
  child.unref();
}

function stop(unit) {
  rmSync(activeFile(unit), { force: true });
  const pid = runningPid(unit);
  if (pid) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 30_000;
    while (alive(pid) && Date.now() < deadline) spawnSync('sleep', ['0.1']);
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(pidFile(unit), { force: true });
}

/** The supervisor: runs the unit until SIGTERM, restarting its main process when it exits. */
async function supervise(unit) {
  const keys = parseUnit(readFileSync(unitFile(unit), 'utf8'));
  const restartSec = Number(
    process.env.FAKE_SYSTEMCTL_RESTART_SEC ?? keys.get('RestartSec')?.at(-1) ?? '0.1',
  );
  const restart = (keys.get('Restart')?.at(-1) ?? 'no') !== 'no';
  let stopping = false;
  let main;
  let credentials;
  process.on('SIGTERM', () => {
    stopping = true;
    main?.kill('SIGTERM');
    if (!main) finish();
  });
  const finish = () => {
    if (credentials) rmSync(credentials, { recursive: true, force: true });
    process.exit(0);
  };

  for (;;) {
    credentials = mkdtempSync(path.join(os.tmpdir(), 'fake-credentials-'));
    for (const entry of keys.get('LoadCredential') ?? []) {
      const [name, source] = entry.split(/:(.*)/s);
      copyFileSync(source, path.join(credentials, name));
      chmodSync(path.join(credentials, name), 0o400);
    }
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/',
      CREDENTIALS_DIRECTORY: credentials,
    };
    for (const entry of keys.get('Environment') ?? []) {
      for (const [, name, value] of entry.matchAll(/"?(\w+)=([^"\s]*)"?/g)) env[name] = value;
    }
    let ok = true;
    for (const line of keys.get('ExecStartPre') ?? []) {
      const [command, ...args] = splitCommand(line, env);
      console.log(`${new Date().toISOString()} ExecStartPre: ${command} ${args.join(' ')}`);
      const result = spawnSync(command, args, { env, stdio: 'inherit' });
      if (result.status !== 0 && !line.startsWith('-')) ok = false;
    }
    if (ok && !stopping) {
      const [command, ...args] = splitCommand(keys.get('ExecStart')?.at(-1) ?? '', env);
      console.log(`${new Date().toISOString()} ExecStart: ${command} ${args.join(' ')}`);
      main = spawn(command, args, { env, stdio: 'inherit' });
      const code = await new Promise((resolve) =>
        main.once('exit', (status, signal) => resolve(signal ?? status)),
      );
      main = undefined;
      console.log(`${new Date().toISOString()} main process exited: ${code}`);
    }
    rmSync(credentials, { recursive: true, force: true });
    credentials = undefined;
    if (stopping || !restart) finish();
    await new Promise((resolve) => setTimeout(resolve, restartSec * 1000));
    if (stopping) finish();
  }
}

async function main(argv) {
  mkdirSync(stateDir, { recursive: true });
  if (argv[0] === '__supervise') return supervise(argv[1]);
  appendFileSync(path.join(stateDir, 'calls.log'), `${argv.join(' ')}\n`);
  const now = argv.includes('--now');
  const [verb, ...rest] = argv.filter((a) => !a.startsWith('-'));
  const units = rest.map((u) => (u.includes('.') ? u : `${u}.service`));
  for (const unit of units) {
    switch (verb) {
      case 'enable':
        writeFileSync(enabledFile(unit), '');
        if (now) start(unit);
        break;
      case 'disable':
        rmSync(enabledFile(unit), { force: true });
        if (now) stop(unit);
        break;
      case 'start':
        start(unit);
        break;
      case 'restart':
        stop(unit);
        start(unit);
        break;
      case 'stop':
        stop(unit);
        break;
      case 'is-enabled':
        if (!existsSync(enabledFile(unit))) {
          console.log('disabled');
          process.exit(1);
        }
        console.log('enabled');
        break;
      case 'is-active':
        if (!(runUnits ? runningPid(unit) : existsSync(activeFile(unit)))) {
          console.log('inactive');
          process.exit(3);
        }
        console.log('active');
        break;
      default:
        break;
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));

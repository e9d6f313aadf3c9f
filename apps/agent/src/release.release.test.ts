// The agent as the server hands it out (apps/agent/dist-release, made by `npm run build`): the
// single executable and the .mjs start on their own, away from the repository, and every file
// is what the manifest says. vitest.release.config.ts also runs integration.test.ts against both.

import { AgentRelease } from '@palisade/contract';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildRelease,
  bundleAgent,
  EXECUTABLE_NAME,
  MODULE_NAME,
  RELEASE_DIR,
} from '../scripts/release.mjs';
import { agentVersion } from './build-info.js';

const run = promisify(execFile);
const sha256 = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

/** Runs a program with nothing inherited: no PATH, no NODE_OPTIONS, no node_modules near. */
const bare = (command: string, args: string[], cwd: string) =>
  run(command, args, { cwd, env: {}, timeout: 60_000 });

describe('the built agent release', () => {
  let manifest: AgentRelease;
  let outside: string;

  beforeAll(async () => {
    manifest = AgentRelease.parse(
      JSON.parse(await readFile(path.join(RELEASE_DIR, 'manifest.json'), 'utf8')),
    );
    outside = await mkdtemp(path.join(os.tmpdir(), 'palisade-release-'));
  });
  afterAll(() => rm(outside, { recursive: true, force: true }));

  it("is this checkout's agent version", () => {
    expect(manifest.version).toBe(agentVersion);
    expect(manifest.files.map((file) => file.name)).toEqual([
      EXECUTABLE_NAME,
      MODULE_NAME,
      'install.sh',
      'upgrade-guard.sh',
    ]);
  });

  it('holds each file with the size and sha256 of the manifest, and a .sha256 to match', async () => {
    for (const file of manifest.files) {
      const where = path.join(RELEASE_DIR, file.name);
      expect((await stat(where)).size, file.name).toBe(file.size);
      expect(await sha256(where), file.name).toBe(file.sha256);
      expect(await readFile(`${where}.sha256`, 'utf8')).toBe(`${file.sha256}  ${file.name}\n`);
    }
  });

  it('runs the single executable from a bare folder, without Node or PATH', async () => {
    const executable = path.join(outside, 'palisade-agent');
    await copyFile(path.join(RELEASE_DIR, EXECUTABLE_NAME), executable);
    expect((await stat(path.join(RELEASE_DIR, EXECUTABLE_NAME))).mode & 0o777).toBe(0o755);
    const version = await bare(executable, ['--version'], outside);
    expect(version.stdout.trim()).toBe(manifest.version);
    expect(version.stderr).toBe('');
    const help = await bare(executable, ['run', '--help'], outside);
    expect(help.stdout).toMatch(/^Usage: palisade-agent run \[options\]/);
    expect(help.stdout).toContain('--password-file <file>');
  });

  it('runs the .mjs with node alone, from a bare folder', async () => {
    const bundle = path.join(outside, MODULE_NAME);
    await copyFile(path.join(RELEASE_DIR, MODULE_NAME), bundle);
    const version = await bare(process.execPath, [bundle, '--version'], outside);
    expect(version.stdout.trim()).toBe(manifest.version);
    const help = await bare(process.execPath, [bundle, 'run', '--help'], outside);
    expect(help.stdout).toMatch(/^Usage: palisade-agent run \[options\]/);
  });

  it('says what is wrong with its settings as the source does, exit code 2', async () => {
    const failed = await bare(
      path.join(RELEASE_DIR, EXECUTABLE_NAME),
      ['run', '--device-id', 'seven'],
      outside,
    ).catch((error: { code: number; stderr: string }) => error);
    expect('code' in failed && failed.code).toBe(2);
    expect(failed.stderr).toMatch(/^palisade-agent: /m);
  });

  it('ships install helpers that are shell scripts sh can parse', async () => {
    for (const name of ['install.sh', 'upgrade-guard.sh']) {
      const where = path.join(RELEASE_DIR, name);
      expect((await readFile(where, 'utf8')).startsWith('#!/bin/sh'), name).toBe(true);
      await expect(run('sh', ['-n', where])).resolves.toBeDefined();
    }
  });
});

describe('builds of another version (for upgrade tests)', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-bundle-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('bundleAgent bakes the version given into the .mjs', async () => {
    const outfile = path.join(dir, 'other.mjs');
    await bundleAgent({ version: '9.8.7', outfile });
    const { stdout } = await bare(process.execPath, [outfile, '--version'], dir);
    expect(stdout.trim()).toBe('9.8.7');
  });

  it('buildRelease without the executable makes a folder the server can serve', async () => {
    const outDir = path.join(dir, 'release');
    const made = await buildRelease({ outDir, version: '0.2.1', executable: false });
    const written = AgentRelease.parse(
      JSON.parse(await readFile(path.join(outDir, 'manifest.json'), 'utf8')),
    );
    expect(written).toEqual(made);
    expect(written.version).toBe('0.2.1');
    expect(written.files.map((file) => [file.name, file.kind])).toEqual([
      [MODULE_NAME, 'node-module'],
      ['install.sh', 'script'],
      ['upgrade-guard.sh', 'script'],
    ]);
    for (const file of written.files) {
      expect(await sha256(path.join(outDir, file.name))).toBe(file.sha256);
    }
    const { stdout } = await bare(
      process.execPath,
      [path.join(outDir, MODULE_NAME), '--version'],
      dir,
    );
    expect(stdout.trim()).toBe('0.2.1');
  });
});

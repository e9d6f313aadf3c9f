// install.sh as a shell script, without a server: it parses as POSIX sh under dash and busybox,
// shellcheck finds nothing, and wrong options get one line naming what is wrong before anything
// is written or downloaded. The install itself is tested against the built release
// (install.release.test.ts).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installScript } from './harness.js';

const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;

function script(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync('sh', [installScript, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('install.sh', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'palisade-install-sh-'));
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it.each([
    ['sh', ['-n']],
    ['dash', ['-n']],
    ['busybox', ['sh', '-n']],
  ])('parses under %s', (shell, args) => {
    if (!has(shell)) throw new Error(`${shell} is not installed (scripts/ensure-system-deps.sh)`);
    const result = spawnSync(shell, [...args, installScript], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('passes shellcheck -s sh', () => {
    if (!has('shellcheck')) {
      throw new Error('shellcheck is not installed: run scripts/ensure-system-deps.sh');
    }
    const result = spawnSync('shellcheck', ['-s', 'sh', installScript], { encoding: 'utf8' });
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
  });

  it('documents every option it takes in --help', () => {
    const help = script(['--help']);
    expect(help.status).toBe(0);
    // The option names in the case arms of parse_options.
    const arms = readFileSync(installScript, 'utf8').matchAll(
      /^ +((?:-h \| )?--[a-z-]+(?: \| --[a-z-]+)*)\)/gm,
    );
    const parsed = new Set([...arms].flatMap((m) => m[1]?.split(' | ') ?? []));
    expect(parsed.size).toBeGreaterThan(8);
    for (const option of parsed) expect(help.stdout).toContain(option);
  });

  it.each([
    [['--bogus'], 'unknown option --bogus (see --help)'],
    [['--root', root], '--server is required'],
    [['--root', root, '--server', 'ftp://x'], '--server must be an http:// or https:// URL'],
    [['--root', root, '--server', 'http://x', '--flavor', 'rpm'], '--flavor is executable or'],
    [
      ['--root', root, '--server', 'http://x', '--token', 'abc'],
      'the enrolment token is malformed',
    ],
    [['--root', root, '--output-dir', 'relative'], '--output-dir must be an absolute path'],
    [['--root', root, '--eve', '/var/log/x y.json'], '--eve may hold only letters'],
    [['--root', path.join(root, 'missing'), '--server', 'http://x'], 'is not a folder'],
    [['--root', root, '--uninstall'], 'nothing to remove'],
  ])('refuses %j with one line', async (args, message) => {
    const result = script(args);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(message);
    expect(await readdir(root)).toEqual([]);
  });

  it('refuses a PALISADE_AGENT_USER that is no plain user name', async () => {
    const result = script(['--root', root, '--server', 'http://x'], {
      PALISADE_AGENT_USER: 'agent;rm',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PALISADE_AGENT_USER must be a plain user name');
    expect(await readdir(root)).toEqual([]);
  });

  it('takes --name=value as well as --name value', () => {
    const result = script([`--root=${root}`, '--server=http://x', '--token=abc']);
    expect(result.stderr).toContain('the enrolment token is malformed');
  });
});

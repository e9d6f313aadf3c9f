import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const GUARD = fileURLToPath(new URL('../../install/upgrade-guard.sh', import.meta.url));
/** The shells a sensor may have as /bin/sh. */
const SHELLS = [['sh'], ['dash'], ['busybox', 'sh']].filter(
  ([shell]) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0,
);

let dir: string;
let installDir: string;
let stateDir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-guard-'));
  installDir = path.join(dir, 'opt');
  stateDir = path.join(dir, 'state');
  await mkdir(path.join(installDir, 'versions/0.2.0'), { recursive: true });
  await mkdir(path.join(installDir, 'versions/0.2.1'), { recursive: true });
  await mkdir(stateDir);
  await symlink('versions/0.2.1', path.join(installDir, 'current'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const now = () => Math.floor(Date.now() / 1000);
const record = (deadline: number) =>
  `${JSON.stringify({ id: 41, from: '0.2.0', to: '0.2.1', deadline })}\n`;
const current = () => readlink(path.join(installDir, 'current'));

function guard(shell: string[], ...extra: string[]) {
  const [command = 'sh', ...args] = shell;
  return spawnSync(
    command,
    [...args, GUARD, '--install-dir', installDir, '--state-dir', stateDir, ...extra],
    { encoding: 'utf8' },
  );
}

describe.each(SHELLS.map((shell) => [shell.join(' '), shell] as const))(
  'upgrade-guard under %s',
  (_name, shell) => {
    it('does nothing without an upgrade under way', async () => {
      expect(guard(shell).status).toBe(0);
      expect(await current()).toBe('versions/0.2.1');
    });

    it('leaves the new version alone before its deadline', async () => {
      await writeFile(path.join(stateDir, 'upgrade.json'), record(now() + 60));
      expect(guard(shell).status).toBe(0);
      expect(await current()).toBe('versions/0.2.1');
      expect(existsSync(path.join(stateDir, 'upgrade.json'))).toBe(true);
      expect(existsSync(path.join(stateDir, 'upgrade-failed.json'))).toBe(false);
    });

    it('restores the old version after the deadline and says why', async () => {
      await writeFile(path.join(stateDir, 'upgrade.json'), record(now() - 1));
      const run = guard(shell);
      expect(run.status).toBe(0);
      expect(run.stderr).toContain('0.2.0 restored');
      expect(await current()).toBe('versions/0.2.0');
      expect(existsSync(path.join(stateDir, 'upgrade.json'))).toBe(false);
      const failed: unknown = JSON.parse(
        await readFile(path.join(stateDir, 'upgrade-failed.json'), 'utf8'),
      );
      expect(failed).toEqual({
        id: 41,
        from: '0.2.0',
        to: '0.2.1',
        reason: 'version 0.2.1 did not report in to the server before its deadline; 0.2.0 restored',
      });
      // No temporary link is left beside `current`.
      expect((await readdir(installDir)).sort()).toEqual(['current', 'versions']);
    });

    it('never blocks the start: a bad record or a missing version is reported and left', async () => {
      await writeFile(
        path.join(stateDir, 'upgrade.json'),
        '{"id":1,"from":"../../etc","to":"0.2.1","deadline":1}\n',
      );
      const bad = guard(shell);
      expect(bad.status).toBe(0);
      expect(bad.stderr).toContain('not an upgrade record');
      expect(await current()).toBe('versions/0.2.1');

      await rm(path.join(installDir, 'versions/0.2.0'), { recursive: true });
      await writeFile(path.join(stateDir, 'upgrade.json'), record(now() - 1));
      const gone = guard(shell);
      expect(gone.status).toBe(0);
      expect(gone.stderr).toContain('nothing to restore');
      expect(await current()).toBe('versions/0.2.1');
    });

    it('refuses to run without both folders', () => {
      const [command = 'sh', ...args] = shell;
      const run = spawnSync(command, [...args, GUARD, '--install-dir', installDir], {
        encoding: 'utf8',
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('usage');
    });
  },
);

it('is accepted by shellcheck as POSIX sh', () => {
  const check = spawnSync('shellcheck', ['-s', 'sh', GUARD], { encoding: 'utf8' });
  if (check.error) return; // shellcheck not installed: sh -n still checks the syntax
  expect(check.stdout).toBe('');
  expect(check.status).toBe(0);
});

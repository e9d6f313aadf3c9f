import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './testing/corpus.js';

function cli(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(
    process.execPath,
    ['--conditions=palisade-source', '--import', 'tsx', 'apps/agent/src/cli.ts', ...args],
    { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30_000 },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('palisade-agent command line', () => {
  it('prints its version and its help', () => {
    expect(cli(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = cli(['run', '--help']).stdout;
    for (const flag of ['--server', '--device-id', '--password-file', '--reload-cmd', '--eve']) {
      expect(help).toContain(flag);
    }
  }, 60_000);

  it('names every missing or bad setting and exits with 2, reading the config file and env', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-cli-'));
    try {
      const config = path.join(dir, 'agent.json');
      await writeFile(config, JSON.stringify({ server: 'http://127.0.0.1:1', 'device-id': 4 }));
      const result = cli(['run', '--config', config], { PALISADE_BATCH_SIZE: 'many' });
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('--output-dir: a folder is required');
      expect(result.stderr).toContain('--state-dir: a folder is required');
      expect(result.stderr).toContain('--batch-size: a positive whole number is required');
      expect(result.stderr).not.toContain('--server');
      expect(result.stderr).not.toContain('--device-id');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

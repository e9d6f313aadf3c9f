import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { runReloadCommands } from './reload.js';

const options = { cwd: os.tmpdir(), timeoutMs: 5000 };

describe('reload commands', () => {
  it('runs every command in order when all succeed', async () => {
    expect(await runReloadCommands(['true', 'test -d .'], options)).toEqual({ ok: true });
  });

  it('reports the failing command, its exit code and its error output, and stops there', async () => {
    const result = await runReloadCommands(
      ['true', 'echo "rule 3: bad option" >&2; exit 3', 'touch /nonexistent/never'],
      options,
    );
    expect(result).toEqual({
      ok: false,
      error:
        'reload command "echo "rule 3: bad option" >&2; exit 3" failed with exit code 3: rule 3: bad option',
    });
  });

  it('kills a command that outlives its time limit', async () => {
    const result = await runReloadCommands(['sleep 10'], { ...options, timeoutMs: 200 });
    expect(result).toEqual({ ok: false, error: 'reload command "sleep 10" timed out after 0.2 s' });
  });

  it('passes the versions in the environment', async () => {
    const result = await runReloadCommands(['test "$PALISADE_POLICY_VERSION" = 7'], {
      ...options,
      env: { PALISADE_POLICY_VERSION: '7' },
    });
    expect(result.ok).toBe(true);
  });
});

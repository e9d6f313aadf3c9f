import { mkdir, mkdtemp, readdir, readlink, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installLayout, type InstallLayout } from './layout.js';
import { currentVersion, pruneVersions, switchCurrent } from './swap.js';

let dir: string;
let layout: InstallLayout;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-swap-'));
  layout = installLayout(dir);
  for (const version of ['0.1.0', '0.2.0', '0.2.1', '0.3.0.partial']) {
    await mkdir(path.join(layout.versionsDir, version), { recursive: true });
  }
  await symlink('versions/0.2.0', layout.current);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the current link', () => {
  it('is switched to a relative link and read back as a version', async () => {
    expect(await currentVersion(layout)).toBe('0.2.0');
    await switchCurrent(layout, '0.2.1');
    expect(await readlink(layout.current)).toBe('versions/0.2.1');
    expect(await currentVersion(layout)).toBe('0.2.1');
    expect((await readdir(dir)).sort()).toEqual(['current', 'versions']);
  });

  it('always names one whole version while it is switched back and forth', async () => {
    let switching = true;
    const seen = new Set<string>();
    const reader = (async () => {
      // Every read while the switches run finds the link (a remove-then-create would not).
      while (switching) seen.add(await readlink(layout.current));
    })();
    for (let i = 0; i < 60; i++) await switchCurrent(layout, i % 2 ? '0.2.0' : '0.2.1');
    switching = false;
    await reader;
    expect([...seen].sort()).toEqual(['versions/0.2.0', 'versions/0.2.1']);
    // Each switch syncs the folder: on a loaded machine 200 of them outlived the default 5 s,
    // and the switches left running then re-created the link under the next test.
  }, 30_000);

  it('is null when the installation has none', async () => {
    await rm(layout.current);
    expect(await currentVersion(layout)).toBeNull();
  });
});

it('prunes every version but those kept, leftover downloads included', async () => {
  expect((await pruneVersions(layout, ['0.2.1', '0.2.0'])).sort()).toEqual([
    '0.1.0',
    '0.3.0.partial',
  ]);
  expect((await readdir(layout.versionsDir)).sort()).toEqual(['0.2.0', '0.2.1']);
});

import type { AgentBundle } from '@palisade/contract';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderBundle, renderSnortVariables, renderSuricataVariables } from './render.js';
import { readBundleManifest, writeBundleFiles } from './write.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-bundle-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bundle = (version: number, extra: Partial<AgentBundle> = {}): AgentBundle => ({
  config_version: version,
  policy_version: version * 10,
  rules: `alert tcp any any -> any 80 (msg:"v${version}"; sid:${version};)`,
  thresholds: 'suppress gen_id 1, sig_id 2\n',
  variables: { HOME_NET: '[10.0.0.0/8,192.168.0.0/16]', HTTP_PORTS: '[80,8080]' },
  nftables: 'flush ruleset\n',
  routes: 'ip route replace 10.9.0.0/16 via 10.0.0.1\n',
  ...extra,
});

describe('bundle files', () => {
  it('renders variables as Suricata address and port groups and Snort vars', () => {
    const vars = { HOME_NET: '[10.0.0.0/8]', EXTERNAL_NET: '!$HOME_NET', SSH_PORTS: '22' };
    expect(renderSuricataVariables(vars)).toContain(
      'vars:\n  address-groups:\n    EXTERNAL_NET: "!$HOME_NET"\n    HOME_NET: "[10.0.0.0/8]"\n  port-groups:\n    SSH_PORTS: "22"\n',
    );
    expect(renderSnortVariables(vars)).toContain(
      'ipvar HOME_NET [10.0.0.0/8]\nportvar SSH_PORTS 22',
    );
  });

  it('writes a whole bundle, removes what is no longer managed, and records the versions', async () => {
    await writeBundleFiles(dir, renderBundle(bundle(1)), {
      config_version: 1,
      policy_version: 10,
      etag: '"1-10"',
    });
    await writeBundleFiles(dir, renderBundle(bundle(2, { nftables: null })), {
      config_version: 2,
      policy_version: 20,
      etag: '"2-20"',
    });
    expect((await readdir(dir)).sort()).toEqual([
      'bundle.json',
      'palisade.rules',
      'routes.sh',
      'threshold.config',
      'variables.conf',
      'variables.yaml',
    ]);
    expect(await readFile(path.join(dir, 'palisade.rules'), 'utf8')).toContain('msg:"v2"');
    expect(await readBundleManifest(dir)).toMatchObject({ config_version: 2, etag: '"2-20"' });
  });

  it('changes nothing when one file of the bundle cannot be written', async () => {
    await writeBundleFiles(dir, renderBundle(bundle(1)), {
      config_version: 1,
      policy_version: 10,
      etag: null,
    });
    const before = await readFile(path.join(dir, 'palisade.rules'), 'utf8');
    await rm(path.join(dir, 'routes.sh'));
    await mkdir(path.join(dir, 'routes.sh')); // a folder where a file must go
    await expect(
      writeBundleFiles(dir, renderBundle(bundle(2)), {
        config_version: 2,
        policy_version: 20,
        etag: null,
      }),
    ).rejects.toThrow(/routes\.sh/);
    expect(await readFile(path.join(dir, 'palisade.rules'), 'utf8')).toBe(before);
    expect(await readBundleManifest(dir)).toMatchObject({ config_version: 1 });
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { describeIssues, mergeOptions, SettingsSchema, toAgentSettings } from './settings.js';

describe('settings', () => {
  it('takes flags over environment over the config file over defaults', () => {
    const merged = mergeOptions(
      { server: 'http://flag:1', deviceId: '5', batchSize: '9' },
      { server: 'cli', deviceId: 'env', batchSize: 'env' },
      {
        server: 'http://file:1',
        deviceId: 3,
        outputDir: '/out',
        stateDir: '/state',
        reloadCmd: ['a', 'b'],
      },
    );
    const settings = SettingsSchema.parse(merged);
    expect(settings).toMatchObject({
      server: 'http://flag:1',
      deviceId: 5,
      outputDir: '/out',
      batchSize: 9,
      reloadCmd: ['a', 'b'],
      reloadTimeout: 60,
      eveStart: 'end',
      push: true,
    });
    expect(toAgentSettings(settings, 'pw')).toMatchObject({ reloadTimeoutMs: 60_000, eve: null });
  });

  it('reads reload commands one per line and booleans from the environment', () => {
    const settings = SettingsSchema.parse({
      server: 'https://x',
      deviceId: '1',
      outputDir: 'o',
      stateDir: 's',
      reloadCmd: 'suricatasc -c reload-rules\nnft -f nftables.nft\n',
      simulate: 'true',
      push: 'false',
    });
    expect(settings.reloadCmd).toEqual(['suricatasc -c reload-rules', 'nft -f nftables.nft']);
    expect(settings.simulate).toBe(true);
    expect(settings.push).toBe(false);
  });

  it('names every bad setting by its flag', () => {
    const parsed = SettingsSchema.safeParse({ server: 'nope', deviceId: '-2', outputDir: 'o' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const lines = describeIssues(parsed.error);
    expect(lines).toContain('--server: an http(s) URL of the Palisade server is required');
    expect(lines.some((l) => l.startsWith('--device-id:'))).toBe(true);
    expect(lines.some((l) => l.startsWith('--state-dir:'))).toBe(true);
  });
});

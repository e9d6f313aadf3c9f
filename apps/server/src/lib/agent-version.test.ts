import { describe, expect, it } from 'vitest';
import { compareVersions, isOutdated } from './agent-version.js';

describe('agent versions', () => {
  it('are ordered as semver orders them', () => {
    const ordered = ['0.1.0', '0.1.9', '0.2.0-rc.1', '0.2.0-rc.2', '0.2.0', '0.10.0', '1.0.0'];
    for (let i = 0; i + 1 < ordered.length; i++) {
      const [older = '', newer = ''] = [ordered[i], ordered[i + 1]];
      expect(compareVersions(older, newer), `${older} < ${newer}`).toBeLessThan(0);
      expect(compareVersions(newer, older), `${newer} > ${older}`).toBeGreaterThan(0);
    }
    expect(compareVersions('0.2.0+build.5', '0.2.0')).toBe(0);
    expect(compareVersions('nightly', '0.2.0')).toBeNull();
  });

  it('call an agent outdated only when its version is known to be older', () => {
    expect(isOutdated('0.1.0', '0.2.0')).toBe(true);
    expect(isOutdated('0.2.0', '0.2.0')).toBe(false);
    expect(isOutdated('0.3.0', '0.2.0')).toBe(false);
    expect(isOutdated(null, '0.2.0')).toBe(false);
    expect(isOutdated('garbage', '0.2.0')).toBe(false);
    expect(isOutdated('0.1.0', null)).toBe(false);
  });
});

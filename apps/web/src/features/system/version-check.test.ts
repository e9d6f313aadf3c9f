import { describe, expect, it } from 'vitest';
import { shouldNotify, updateAvailable } from './version-check';

const versions = (installed: string, registry: string) => ({
  packages: { server: { installed: '1.0.0', registry: '1.0.0' }, console: { installed, registry } },
});

describe('component version check (spec §4)', () => {
  it('an update is available when an installed version differs from the registry', () => {
    expect(updateAvailable(versions('1.0.0', '1.0.0'))).toBe(false);
    expect(updateAvailable(versions('1.0.0', '1.1.0'))).toBe(true);
  });

  it('notifies only when the versions changed since the cached copy and an update exists', () => {
    expect(shouldNotify(null, versions('1.0.0', '1.1.0'))).toBe(true);
    expect(shouldNotify(versions('1.0.0', '1.1.0'), versions('1.0.0', '1.1.0'))).toBe(false);
    expect(shouldNotify(versions('1.0.0', '1.0.0'), versions('1.0.0', '1.1.0'))).toBe(true);
    expect(shouldNotify(versions('1.0.0', '1.1.0'), versions('1.1.0', '1.1.0'))).toBe(false);
  });
});

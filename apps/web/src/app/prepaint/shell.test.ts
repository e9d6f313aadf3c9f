import { describe, expect, it } from 'vitest';
import { prepaintShellFor } from './shell';

describe('prepaintShellFor', () => {
  it('paints nothing for a visitor without a stored session', () => {
    expect(prepaintShellFor('/devices', false)).toBeNull();
  });

  it('paints nothing on the public pages, signed in or not', () => {
    for (const path of ['/login', '/register', '/lost', '/reset-password', '/login/']) {
      expect(prepaintShellFor(path, true)).toBeNull();
    }
  });

  it('paints nothing on an address it does not know as a signed-in screen', () => {
    for (const path of ['/devicesx', '/nowhere', '/admins']) {
      expect(prepaintShellFor(path, true)).toBeNull();
    }
  });

  it('paints the Devices frame where the console opens Devices', () => {
    expect(prepaintShellFor('/devices', true)).toBe('devices');
    expect(prepaintShellFor('/devices/', true)).toBe('devices');
    expect(prepaintShellFor('/', true)).toBe('devices');
  });

  it('paints the bars and a spinner for any other signed-in screen', () => {
    for (const path of ['/devices/12', '/alerts', '/admin/users/all', '/policies']) {
      expect(prepaintShellFor(path, true)).toBe('loading');
    }
  });
});

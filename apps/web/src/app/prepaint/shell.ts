/**
 * Which frame a page load paints before the console's scripts have run (see prepaint.ts):
 * Devices (also where / leads) paints its heading and search box, any other
 * signed-in screen the bars and the loading spinner its screen would show, and a signed-out
 * visitor (no stored token) or a public page nothing, as the sign-in page comes quickly.
 */
export type PrepaintShell = 'devices' | 'loading';

const PUBLIC_PATHS = new Set(['/login', '/register', '/lost', '/reset-password']);
const DEVICES_PATHS = new Set(['/', '/devices']);

export function prepaintShellFor(pathname: string, hasToken: boolean): PrepaintShell | null {
  if (!hasToken) return null;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (PUBLIC_PATHS.has(path)) return null;
  return DEVICES_PATHS.has(path) ? 'devices' : 'loading';
}

/**
 * Which frame a page load paints before the console's scripts have run (see prepaint.ts):
 * Devices (also where / leads) paints its heading and search box, any other signed-in screen
 * the bars and the loading spinner its screen would show, and a signed-out visitor (no stored
 * token) or any other address nothing, as the sign-in page comes quickly.
 */
export type PrepaintShell = 'devices' | 'loading';

/**
 * The signed-in screens' addresses (router.tsx), each with what lies under it. Listed rather
 * than inferred from the public ones: a screen missing here gets no frame, where a public page
 * missing from a list of those would stay covered by one until it gave up.
 */
const SIGNED_IN_PATHS = [
  '/home',
  '/alerts',
  '/monitoring',
  '/firewall',
  '/policies',
  '/devices',
  '/account',
  '/deploy',
  '/admin',
  '/audit',
];
const DEVICES_PATHS = new Set(['/', '/devices']);

export function prepaintShellFor(pathname: string, hasToken: boolean): PrepaintShell | null {
  if (!hasToken) return null;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (DEVICES_PATHS.has(path)) return 'devices';
  const signedIn = SIGNED_IN_PATHS.some((root) => path === root || path.startsWith(`${root}/`));
  return signedIn ? 'loading' : null;
}

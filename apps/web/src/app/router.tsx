import { Navigate, Route, createRoutesFromElements } from 'react-router';
import { PublicOnly, RequireAuth, RootShell } from './guards';
import { screenChunk } from './screen-chunk';

/** Every screen's chunk, each loaded once (see screenChunk). */
const screens = {
  login: screenChunk(() => import('./routes/login')),
  register: screenChunk(() => import('./routes/register')),
  lost: screenChunk(() => import('./routes/lost')),
  resetPassword: screenChunk(() => import('./routes/reset-password')),
  signedInLayout: screenChunk(() => import('./routes/signed-in-layout')),
  home: screenChunk(() => import('./routes/home')),
  alerts: screenChunk(() => import('./routes/alerts')),
  monitoring: screenChunk(() => import('./routes/monitoring')),
  firewall: screenChunk(() => import('./routes/firewall')),
  policies: screenChunk(() => import('./routes/policies')),
  devices: screenChunk(() => import('./routes/devices')),
  device: screenChunk(() => import('./routes/device')),
  account: screenChunk(() => import('./routes/account')),
  deploy: screenChunk(() => import('./routes/deploy')),
  requireAdmin: screenChunk(() => import('./routes/require-admin')),
  adminUsersAll: screenChunk(() => import('./routes/admin-users-all')),
  adminUsersCreate: screenChunk(() => import('./routes/admin-users-create')),
  adminUsersEdit: screenChunk(() => import('./routes/admin-users-edit')),
  audit: screenChunk(() => import('./routes/audit')),
};
/** The signed-in screens by path (/ opens Devices), so the one a page opens on can come early. */
const signedInScreens = new Map([
  ['/home', screens.home],
  ['/alerts', screens.alerts],
  ['/monitoring', screens.monitoring],
  ['/firewall', screens.firewall],
  ['/policies', screens.policies],
  ['/devices', screens.devices],
  ['/', screens.devices],
  ['/account', screens.account],
  ['/deploy', screens.deploy],
]);

/**
 * Starts loading the signed-in layout and the screen at `pathname` before the router asks for
 * them: otherwise the screen's chunks wait for the session check and then for the layout's.
 * Right to left, also the kit's right-to-left styles: without them the layout's first render
 * was drawn left to right and flipped a moment later (its margins moved under the user's eyes).
 */
export const preloadSignedIn = (pathname: string, { rightToLeft = false } = {}) =>
  Promise.all([
    screens.signedInLayout.preload(),
    signedInScreens.get(pathname)?.preload(),
    rightToLeft
      ? import('../components/theme/emotion-cache').then(({ loadRtlCache }) => loadRtlCache())
      : undefined,
  ]).catch(() => undefined);

/** Route names the spec gives; Admin-Users-Edit is /admin/users/edit/{id}. */
export const adminUsersEditPath = (id: number | string) => `/admin/users/edit/${id}`;

/**
 * Spec §2's route table (history mode, base /), for a data router: only a data router can hold
 * a navigation while an editor asks whether to discard its unsaved changes.
 */
export const appRoutes = createRoutesFromElements(
  <Route element={<RootShell />}>
    <Route element={<PublicOnly />}>
      <Route path="/login" element={<screens.login.Screen />} />
      <Route path="/register" element={<screens.register.Screen />} />
    </Route>
    <Route path="/lost" element={<screens.lost.Screen />} />
    <Route path="/reset-password" element={<screens.resetPassword.Screen />} />
    <Route element={<RequireAuth />}>
      <Route element={<screens.signedInLayout.Screen />}>
        <Route path="/home" element={<screens.home.Screen />} />
        <Route path="/alerts" element={<screens.alerts.Screen />} />
        <Route path="/monitoring" element={<screens.monitoring.Screen />} />
        <Route path="/firewall" element={<screens.firewall.Screen />} />
        <Route path="/policies" element={<screens.policies.Screen />} />
        <Route path="/devices" element={<screens.devices.Screen />} />
        <Route path="/devices/:id" element={<screens.device.Screen />} />
        <Route path="/account" element={<screens.account.Screen />} />
        <Route path="/deploy" element={<screens.deploy.Screen />} />
        <Route element={<screens.requireAdmin.Screen />}>
          <Route path="/admin/users/all" element={<screens.adminUsersAll.Screen />} />
          <Route path="/admin/users/create" element={<screens.adminUsersCreate.Screen />} />
          <Route path="/admin/users/edit/:id" element={<screens.adminUsersEdit.Screen />} />
          <Route path="/audit" element={<screens.audit.Screen />} />
        </Route>
      </Route>
    </Route>
    <Route path="/admin" element={<Navigate to="/admin/users/all" replace />} />
    <Route path="/" element={<Navigate to="/devices" replace />} />
    <Route path="*" element={<Navigate to="/devices" replace />} />
  </Route>,
);

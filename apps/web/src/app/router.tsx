import { lazy, type ComponentType } from 'react';
import { Navigate, Route, createRoutesFromElements } from 'react-router';
import { PublicOnly, RequireAuth, RootShell } from './guards';

/** Each screen is its own chunk, so /login loads only what it needs. */
const screen = (load: () => Promise<{ Component: ComponentType }>) =>
  lazy(() => load().then((module) => ({ default: module.Component })));

const Login = screen(() => import('./routes/login'));
const Register = screen(() => import('./routes/register'));
const Lost = screen(() => import('./routes/lost'));
const ResetPassword = screen(() => import('./routes/reset-password'));
const loadSignedInLayout = () => import('./routes/signed-in-layout');
const SignedInLayout = screen(loadSignedInLayout);
const loadHome = () => import('./routes/home');
const loadAlerts = () => import('./routes/alerts');
const loadMonitoring = () => import('./routes/monitoring');
const loadFirewall = () => import('./routes/firewall');
const loadPolicies = () => import('./routes/policies');
const loadDevices = () => import('./routes/devices');
const loadAccount = () => import('./routes/account');
const loadDevice = () => import('./routes/device');
const loadDeploy = () => import('./routes/deploy');
/** The signed-in screens by path (/ opens Devices), so the one a page opens on can come early. */
const signedInScreens = new Map<string, () => Promise<unknown>>([
  ['/home', loadHome],
  ['/alerts', loadAlerts],
  ['/monitoring', loadMonitoring],
  ['/firewall', loadFirewall],
  ['/policies', loadPolicies],
  ['/devices', loadDevices],
  ['/', loadDevices],
  ['/account', loadAccount],
  ['/deploy', loadDeploy],
]);
const Home = screen(loadHome);
const Alerts = screen(loadAlerts);
const Monitoring = screen(loadMonitoring);
const Firewall = screen(loadFirewall);
const Policies = screen(loadPolicies);
const Devices = screen(loadDevices);
const Account = screen(loadAccount);
const Device = screen(loadDevice);
const Deploy = screen(loadDeploy);
const RequireAdmin = screen(() => import('./routes/require-admin'));
const AdminUsersAll = screen(() => import('./routes/admin-users-all'));
const AdminUsersCreate = screen(() => import('./routes/admin-users-create'));
const AdminUsersEdit = screen(() => import('./routes/admin-users-edit'));
const Audit = screen(() => import('./routes/audit'));

/**
 * Starts loading the signed-in layout and the screen at `pathname` before the router asks for
 * them: otherwise the screen's chunks wait for the session check and then for the layout's.
 */
export const preloadSignedIn = (pathname: string) =>
  Promise.all([loadSignedInLayout(), signedInScreens.get(pathname)?.()]).catch(() => undefined);

/** Route names the spec gives; Admin-Users-Edit is /admin/users/edit/{id}. */
export const adminUsersEditPath = (id: number | string) => `/admin/users/edit/${id}`;

/**
 * Spec §2's route table (history mode, base /), for a data router: only a data router can hold
 * a navigation while an editor asks whether to discard its unsaved changes.
 */
export const appRoutes = createRoutesFromElements(
  <Route element={<RootShell />}>
    <Route element={<PublicOnly />}>
      <Route path="/login" element={<Login />} />
      <Route path="/register" element={<Register />} />
    </Route>
    <Route path="/lost" element={<Lost />} />
    <Route path="/reset-password" element={<ResetPassword />} />
    <Route element={<RequireAuth />}>
      <Route element={<SignedInLayout />}>
        <Route path="/home" element={<Home />} />
        <Route path="/alerts" element={<Alerts />} />
        <Route path="/monitoring" element={<Monitoring />} />
        <Route path="/firewall" element={<Firewall />} />
        <Route path="/policies" element={<Policies />} />
        <Route path="/devices" element={<Devices />} />
        <Route path="/devices/:id" element={<Device />} />
        <Route path="/account" element={<Account />} />
        <Route path="/deploy" element={<Deploy />} />
        <Route element={<RequireAdmin />}>
          <Route path="/admin/users/all" element={<AdminUsersAll />} />
          <Route path="/admin/users/create" element={<AdminUsersCreate />} />
          <Route path="/admin/users/edit/:id" element={<AdminUsersEdit />} />
          <Route path="/audit" element={<Audit />} />
        </Route>
      </Route>
    </Route>
    <Route path="/admin" element={<Navigate to="/admin/users/all" replace />} />
    <Route path="/" element={<Navigate to="/devices" replace />} />
    <Route path="*" element={<Navigate to="/devices" replace />} />
  </Route>,
);

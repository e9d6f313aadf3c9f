import { Navigate, Route, createRoutesFromElements } from 'react-router';
import { PublicOnly, RequireAuth, RootShell } from './guards';
import { screenChunk } from './screen-chunk';

const Login = screenChunk(() => import('./routes/login')).Screen;
const Register = screenChunk(() => import('./routes/register')).Screen;
const Lost = screenChunk(() => import('./routes/lost')).Screen;
const ResetPassword = screenChunk(() => import('./routes/reset-password')).Screen;
const signedInLayout = screenChunk(() => import('./routes/signed-in-layout'));
const home = screenChunk(() => import('./routes/home'));
const alerts = screenChunk(() => import('./routes/alerts'));
const monitoring = screenChunk(() => import('./routes/monitoring'));
const firewall = screenChunk(() => import('./routes/firewall'));
const policies = screenChunk(() => import('./routes/policies'));
const devices = screenChunk(() => import('./routes/devices'));
const account = screenChunk(() => import('./routes/account'));
const device = screenChunk(() => import('./routes/device'));
const deploy = screenChunk(() => import('./routes/deploy'));
/** The signed-in screens by path (/ opens Devices), so the one a page opens on can come early. */
const signedInScreens = new Map([
  ['/home', home],
  ['/alerts', alerts],
  ['/monitoring', monitoring],
  ['/firewall', firewall],
  ['/policies', policies],
  ['/devices', devices],
  ['/', devices],
  ['/account', account],
  ['/deploy', deploy],
]);
const SignedInLayout = signedInLayout.Screen;
const Home = home.Screen;
const Alerts = alerts.Screen;
const Monitoring = monitoring.Screen;
const Firewall = firewall.Screen;
const Policies = policies.Screen;
const Devices = devices.Screen;
const Account = account.Screen;
const Device = device.Screen;
const Deploy = deploy.Screen;
const RequireAdmin = screenChunk(() => import('./routes/require-admin')).Screen;
const AdminUsersAll = screenChunk(() => import('./routes/admin-users-all')).Screen;
const AdminUsersCreate = screenChunk(() => import('./routes/admin-users-create')).Screen;
const AdminUsersEdit = screenChunk(() => import('./routes/admin-users-edit')).Screen;
const Audit = screenChunk(() => import('./routes/audit')).Screen;

/**
 * Starts loading the signed-in layout and the screen at `pathname` before the router asks for
 * them: otherwise the screen's chunks wait for the session check and then for the layout's.
 */
export const preloadSignedIn = (pathname: string) =>
  Promise.all([signedInLayout.preload(), signedInScreens.get(pathname)?.preload()]).catch(
    () => undefined,
  );

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

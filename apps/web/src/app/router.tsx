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
const Home = screen(() => import('./routes/home'));
const Alerts = screen(() => import('./routes/alerts'));
const Monitoring = screen(() => import('./routes/monitoring'));
const Firewall = screen(() => import('./routes/firewall'));
const Policies = screen(() => import('./routes/policies'));
const Devices = screen(() => import('./routes/devices'));
const Account = screen(() => import('./routes/account'));
const RequireAdmin = screen(() => import('./routes/require-admin'));
const AdminUsersAll = screen(() => import('./routes/admin-users-all'));
const AdminUsersCreate = screen(() => import('./routes/admin-users-create'));
const AdminUsersEdit = screen(() => import('./routes/admin-users-edit'));

/** Starts loading the signed-in layout before the router asks for it. */
export const preloadSignedIn = () => loadSignedInLayout().catch(() => undefined);

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
        <Route path="/account" element={<Account />} />
        <Route element={<RequireAdmin />}>
          <Route path="/admin/users/all" element={<AdminUsersAll />} />
          <Route path="/admin/users/create" element={<AdminUsersCreate />} />
          <Route path="/admin/users/edit/:id" element={<AdminUsersEdit />} />
        </Route>
      </Route>
    </Route>
    <Route path="/admin" element={<Navigate to="/admin/users/all" replace />} />
    <Route path="/" element={<Navigate to="/devices" replace />} />
    <Route path="*" element={<Navigate to="/devices" replace />} />
  </Route>,
);

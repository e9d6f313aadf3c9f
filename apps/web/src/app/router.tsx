import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { FullPageSpinner } from '../components/page/FullPageSpinner';
import { PublicOnly, RequireAuth, RootShell } from './guards';

/** Each screen is its own chunk, so /login loads only what it needs. */
const screen = (
  load: () => Promise<{ Component: React.ComponentType }>,
): Pick<RouteObject, 'lazy'> => ({
  lazy: load,
});

export const routes: RouteObject[] = [
  {
    element: <RootShell />,
    HydrateFallback: FullPageSpinner,
    children: [
      {
        element: <PublicOnly />,
        children: [
          { path: '/login', ...screen(() => import('./routes/login')) },
          { path: '/register', ...screen(() => import('./routes/register')) },
        ],
      },
      { path: '/lost', ...screen(() => import('./routes/lost')) },
      { path: '/reset-password', ...screen(() => import('./routes/reset-password')) },
      { path: '/bench/table', ...screen(() => import('./routes/bench-table')) },
      {
        element: <RequireAuth />,
        children: [
          {
            ...screen(() => import('./routes/signed-in-layout')),
            children: [
              { path: '/home', ...screen(() => import('./routes/home')) },
              { path: '/alerts', ...screen(() => import('./routes/alerts')) },
              { path: '/monitoring', ...screen(() => import('./routes/monitoring')) },
              { path: '/firewall', ...screen(() => import('./routes/firewall')) },
              { path: '/policies', ...screen(() => import('./routes/policies')) },
              { path: '/devices', ...screen(() => import('./routes/devices')) },
              { path: '/account', ...screen(() => import('./routes/account')) },
              {
                ...screen(() => import('./routes/require-admin')),
                children: [
                  { path: '/admin/users/all', ...screen(() => import('./routes/admin-users-all')) },
                  {
                    path: '/admin/users/create',
                    ...screen(() => import('./routes/admin-users-create')),
                  },
                  {
                    path: '/admin/users/edit/:id',
                    id: 'Admin-Users-Edit',
                    ...screen(() => import('./routes/admin-users-edit')),
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '/admin', element: <Navigate to="/admin/users/all" replace /> },
      { path: '/', element: <Navigate to="/devices" replace /> },
      { path: '*', element: <Navigate to="/devices" replace /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes, { basename: '/' });
}
export type Router = ReturnType<typeof createRouter>;

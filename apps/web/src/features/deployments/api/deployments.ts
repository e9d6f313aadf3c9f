import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  Deployment,
  DeploymentCreate,
  DeploymentDetail,
  ListResponse,
  OrganizationSettings,
  OrganizationSettingsUpdate,
  PendingDeployments,
  PendingDeviceDiff,
} from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

export const deploymentsKey = ['deployments'] as const;

/** GET /deployments/pending: per device, what is deployed and what was saved since. */
export const pendingDeploymentsQueryOptions = queryOptions({
  queryKey: [...deploymentsKey, 'pending'],
  queryFn: ({ signal }) =>
    call(() => http.get('deployments/pending', { signal }).json<PendingDeployments>()),
});

/** GET /deployments/: the latest deployments, newest first. */
export const deploymentsListQueryOptions = queryOptions({
  queryKey: [...deploymentsKey, 'list'],
  queryFn: ({ signal }) =>
    call(() =>
      http
        .get('deployments/', { searchParams: { limit: '20', offset: '0' }, signal })
        .json<ListResponse<Deployment>>(),
    ),
});

/** GET /organization/settings (Administrators). */
export const deploySettingsQueryOptions = queryOptions({
  queryKey: [...deploymentsKey, 'settings'],
  queryFn: ({ signal }) =>
    call(() => http.get('organization/settings', { signal }).json<OrganizationSettings>()),
});

/** POST /deployments/: the chosen devices, canaries first. */
export function useCreateDeployment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: DeploymentCreate) =>
      call(() => http.post('deployments/', { json: request }).json<DeploymentDetail>()),
    onSuccess: () => client.invalidateQueries({ queryKey: deploymentsKey }),
  });
}

/** PUT /organization/settings. */
export function useSaveDeploySettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: OrganizationSettingsUpdate) =>
      call(() =>
        http.put('organization/settings', { json: settings }).json<OrganizationSettings>(),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: deploymentsKey }),
  });
}

/** GET /devices/{id}/pending-deploy: what a deploy would send the device, as diffs. */
export const pendingDeviceDiffQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: [...deploymentsKey, 'pending', deviceId],
    queryFn: ({ signal }) =>
      call(() =>
        http.get(`devices/${deviceId}/pending-deploy`, { signal }).json<PendingDeviceDiff>(),
      ),
  });

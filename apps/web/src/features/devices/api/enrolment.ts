import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call, http } from '../../../lib/api-client';
import type { DeviceEnrolment, EnrolmentToken } from '@palisade/contract';

const enrolmentKey = (deviceId: number) => ['devices', 'enrolment', deviceId] as const;

/** GET /devices/{id}/enrolment: whether an unused token exists (never the token itself). */
export const enrolmentStatusQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: enrolmentKey(deviceId),
    queryFn: ({ signal }) =>
      call(() => http.get(`devices/${deviceId}/enrolment`, { signal }).json<DeviceEnrolment>()),
  });

/** POST /devices/{id}/enrolment: a fresh single-use token; the device's earlier ones stop working. */
export function useIssueEnrolment(deviceId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      call(() => http.post(`devices/${deviceId}/enrolment`, { json: {} }).json<EnrolmentToken>()),
    onSuccess: () =>
      client.invalidateQueries({ queryKey: enrolmentStatusQueryOptions(deviceId).queryKey }),
  });
}

import { queryOptions } from '@tanstack/react-query';
import type { PolicyRender } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

export const policyRenderKey = (id: number) => ['policies', 'render', id] as const;

/** GET /policies/{id}/render: the exact rules text (and threshold.config) a sensor loads. */
export const policyRenderQueryOptions = (id: number) =>
  queryOptions({
    queryKey: policyRenderKey(id),
    queryFn: ({ signal }) =>
      call(() => http.get(`policies/${id}/render`, { signal }).json<PolicyRender>()),
    staleTime: 0,
  });

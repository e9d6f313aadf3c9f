import { queryOptions } from '@tanstack/react-query';
import type { AlertRelated } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { alertsKey } from './keys';

export type AlertRelatedData = z.infer<typeof AlertRelated>;

/** GET /alerts/{id}/related : the alert's flow and its host pair within ±15 minutes. */
export const relatedAlertsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...alertsKey, 'related', id],
    queryFn: ({ signal }) =>
      call(() => http.get(`alerts/${id}/related`, { signal }).json<AlertRelatedData>()),
  });

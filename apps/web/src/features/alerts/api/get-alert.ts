import { queryOptions } from '@tanstack/react-query';
import type { AlertDetail } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { alertsKey } from './keys';

export type AlertDetailData = z.infer<typeof AlertDetail>;

/** GET /alerts/{id} : one alert with its full eve.json event and the rule that fired. */
export const alertDetailQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...alertsKey, 'detail', id],
    queryFn: ({ signal }) =>
      call(() => http.get(`alerts/${id}`, { signal }).json<AlertDetailData>()),
  });

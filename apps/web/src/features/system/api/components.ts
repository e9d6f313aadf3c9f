import { queryOptions } from '@tanstack/react-query';
import type { Components } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** GET /components: installed and registry version of every component. */
export const componentsQueryOptions = queryOptions({
  queryKey: ['components'],
  queryFn: ({ signal }) => call(() => http.get('components', { signal }).json<Components>()),
  staleTime: 0,
});

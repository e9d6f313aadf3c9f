import { queryOptions } from '@tanstack/react-query';
import { call, http } from '../../../lib/api-client';

export interface ServerConfig {
  auth_disabled: boolean;
}

/** GET /config (no auth): whether the server runs with authentication disabled. */
export const configQueryOptions = queryOptions({
  queryKey: ['config'],
  queryFn: ({ signal }) => call(() => http.get('config', { signal }).json<ServerConfig>()),
  staleTime: Infinity,
});

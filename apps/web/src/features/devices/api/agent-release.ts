import { queryOptions } from '@tanstack/react-query';
import { ApiError, call, http } from '../../../lib/api-client';
import type { AgentReleaseListing } from '@palisade/contract';

/**
 * GET /agent/download/: the agent build this server hands out, or null when it carries none
 * (404 agent_release_missing: the server was started without `npm run build`).
 */
export const agentReleaseQueryOptions = queryOptions({
  queryKey: ['agent', 'release'] as const,
  queryFn: async ({ signal }): Promise<AgentReleaseListing | null> => {
    try {
      return await call(() => http.get('agent/download/', { signal }).json<AgentReleaseListing>());
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) return null;
      throw failure;
    }
  },
  staleTime: 5 * 60_000,
});

import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ChangePreview,
  RollbackRequest,
  RollbackResponse,
  VersionDiff,
  VersionList,
} from '@palisade/contract';
import { call, http } from '../../lib/api-client';

/**
 * The version history of one object, by the path its API keeps it under (without the leading
 * slash): `policies/7`, `fwruleset/3`, `deviceconfigurationprofiles/2`, `devices/5/network`.
 */
export const versionsKey = (base: string) => ['versions', base] as const;

/** GET {base}/versions: the newest 200 versions (an object's whole history, in practice). */
export const versionsQueryOptions = (base: string) =>
  queryOptions({
    queryKey: versionsKey(base),
    queryFn: ({ signal }) =>
      call(() => http.get(`${base}/versions?limit=200`, { signal }).json<VersionList>()),
    staleTime: 0,
  });

/** GET {base}/versions/{a}/diff/{b}: what changed going from version a to version b. */
export const versionDiffQueryOptions = (base: string, a: number, b: number) =>
  queryOptions({
    queryKey: [...versionsKey(base), 'diff', a, b] as const,
    queryFn: ({ signal }) =>
      call(() => http.get(`${base}/versions/${a}/diff/${b}`, { signal }).json<VersionDiff>()),
    // Two versions never change: their diff is the same for ever.
    staleTime: Infinity,
  });

/**
 * POST {base}/rollback. `invalidate` names the queries of the object's own feature (its list,
 * its render), which the rollback changed.
 */
export function useRollback(base: string, invalidate: readonly (readonly unknown[])[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RollbackRequest) =>
      call(() => http.post(`${base}/rollback`, { json: body }).json<RollbackResponse>()),
    onSuccess: async () => {
      await Promise.all(
        [versionsKey(base), ...invalidate].map((queryKey) =>
          client.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}

/**
 * POST {base}/rollback/preview: what the rollback would send to each device (the devices it
 * reaches, their diffs, any it would cut off), with the rollback's own body; nothing is saved.
 */
export const previewRollback = (base: string, body: RollbackRequest): Promise<ChangePreview> =>
  call(() => http.post(`${base}/rollback/preview`, { json: body }).json());

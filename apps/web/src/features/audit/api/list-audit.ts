import { infiniteQueryOptions } from '@tanstack/react-query';
import type { AuditPage } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** The filters of the log, as the page's URL holds them (empty ones left out). */
export interface AuditFilters {
  actor?: string;
  action?: string;
  object_type?: string;
  object_id?: string;
  from?: string;
  to?: string;
}

export const AUDIT_PAGE_SIZE = 50;

export const auditKeys = {
  all: ['audit'] as const,
  list: (filters: AuditFilters) => ['audit', 'list', filters] as const,
};

/** Only the filters set: an empty field is no filter. */
export const filterParams = (filters: AuditFilters): Record<string, string> =>
  Object.fromEntries(
    Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );

/** GET /audit/: newest first, each next page by keyset (`before_id`). */
export const auditListQueryOptions = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: auditKeys.list(filters),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) =>
      call(() =>
        http
          .get('audit/', {
            searchParams: {
              ...filterParams(filters),
              limit: AUDIT_PAGE_SIZE,
              ...(pageParam === null ? {} : { before_id: pageParam }),
            },
            signal,
          })
          .json<AuditPage>(),
      ),
    getNextPageParam: (last) => last.next_before_id,
  });

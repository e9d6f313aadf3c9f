import type { UseQueryResult } from '@tanstack/react-query';
import { apiErrorMessage, errorText, type ErrorKey } from '../../lib/errors';

/**
 * DataTable's loading, error and retry props for the query that fills it: the error is the
 * shared handler's message (spec §8), translated.
 */
export function tableQueryStatus(
  query: Pick<UseQueryResult, 'isFetching' | 'isError' | 'error' | 'refetch'>,
  t: (key: ErrorKey) => string,
): { loading: boolean; error: string | null; onRetry: () => void } {
  return {
    loading: query.isFetching,
    error: errorText(query.isError ? apiErrorMessage(query.error) : null, t),
    onRetry: () => void query.refetch(),
  };
}

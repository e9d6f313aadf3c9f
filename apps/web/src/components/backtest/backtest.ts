import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { BacktestRequest, BacktestResult } from '@palisade/contract';
import { call, http } from '../../lib/api-client';

/** The entries of a tuning change, in the shapes the policy keeps. */
export type BacktestEntries = Pick<BacktestRequest, 'thresholds' | 'overrides'>;

/**
 * POST /policies/{id}/backtest: what the entries would have removed from the stored alerts of
 * the policy's devices over the last `days` days. A read: cached by its whole request.
 */
export const backtestQueryOptions = (policyId: number, days: number, entries: BacktestEntries) =>
  queryOptions({
    queryKey: ['policies', policyId, 'backtest', days, entries],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .post(`policies/${policyId}/backtest`, { json: { days, ...entries }, signal })
          .json<BacktestResult>(),
      ),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

import type { QueryClient } from '@tanstack/react-query';
import type { RuleSourceUpdateDetail } from '@palisade/contract';
import { updateQueryOptions } from './get-update';
import { ruleSourcesKeys } from './keys';
import { UPDATE_POLL_MS, isUpdateActive } from './update-status';

/**
 * Reads an update again every UPDATE_POLL_MS (into the query cache, where the progress shows
 * it) until it ends; then the source, the lists and the history are read again.
 */
export async function followUpdate(
  client: QueryClient,
  sourceId: number,
  updateId: number,
): Promise<RuleSourceUpdateDetail> {
  const options = updateQueryOptions(sourceId, updateId);
  for (;;) {
    const update = await client.fetchQuery({ ...options, staleTime: 0 });
    if (!isUpdateActive(update.status)) {
      await Promise.all([
        client.invalidateQueries({ queryKey: ruleSourcesKeys.source(sourceId) }),
        client.invalidateQueries({ queryKey: ruleSourcesKeys.lists }),
        client.invalidateQueries({ queryKey: ruleSourcesKeys.updates(sourceId) }),
      ]);
      return update;
    }
    await new Promise((resolve) => setTimeout(resolve, UPDATE_POLL_MS));
  }
}

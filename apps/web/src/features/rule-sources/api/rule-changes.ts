import { queryOptions } from '@tanstack/react-query';
import type { RuleChange } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { ruleSourcesKeys } from './keys';

/** How many of a rule's changes the link names (newest first). */
const RULE_CHANGES_LIMIT = 5;

/** GET /rulesources/rule-changes?gid=&sid=: one rule's changes across updates, newest first. */
export const ruleChangesQueryOptions = (gid: number, sid: number) =>
  queryOptions({
    queryKey: ruleSourcesKeys.ruleChanges(gid, sid),
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get('rulesources/rule-changes', {
            searchParams: { gid: String(gid), sid: String(sid), limit: String(RULE_CHANGES_LIMIT) },
            signal,
          })
          .json<{ data: RuleChange[] }>(),
      ),
  });

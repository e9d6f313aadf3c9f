import type { AlertSummary, AlertSummaryQuery } from '@palisade/contract';
import type { Database } from '../../db/client.js';
import type { Principal } from '../../plugins/auth.js';
import { alertSummaryRepository as repo } from './alert-summary.repository.js';
import { createAlertsService } from './alerts.service.js';

const DAY_MS = 86_400_000;

/**
 * The Home dashboard's alert figures in three statements whatever the fleet: the rate per
 * severity, the top signatures (the signature groups' query, rollup when it answers) and the
 * top source and destination addresses.
 */
export function createAlertSummaryService(db: Database) {
  const alerts = createAlertsService(db);
  return {
    async summary(principal: Principal, query: AlertSummaryQuery, now = new Date()) {
      const start = query.since ? new Date(query.since) : new Date(now.getTime() - DAY_MS);
      const span = Math.max(1, (now.getTime() - start.getTime()) / 1000);
      const seconds = Math.max(1, Math.ceil(span / query.buckets));
      const used = Math.min(query.buckets, Math.ceil(span / seconds));
      const orgId = principal.orgId;
      const [rate, groups, talkers] = await Promise.all([
        repo.rate(db, { orgId, start, seconds, buckets: used }),
        alerts.groups(principal, { since: start.toISOString() }, query.top),
        repo.talkers(db, { orgId, start, top: query.top }),
      ]);
      const buckets = Array.from({ length: used }, (_, i) => ({
        time: new Date(start.getTime() + i * seconds * 1000).toISOString(),
        counts: [0, 0, 0, 0],
      }));
      for (const row of rate) {
        const bucket = buckets[row.bucket];
        if (bucket) bucket.counts[row.severity - 1] = row.count;
      }
      const side = (which: 'src' | 'dest') =>
        talkers.filter((t) => t.side === which).map(({ ip, count }) => ({ ip, count }));
      return {
        since: start.toISOString(),
        interval: seconds,
        rate: buckets,
        top_signatures: groups.data,
        top_sources: side('src'),
        top_destinations: side('dest'),
      } satisfies AlertSummary;
    },
  };
}

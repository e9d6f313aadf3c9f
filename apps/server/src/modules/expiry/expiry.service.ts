// Changes with an end date (issue 18): rule overrides, thresholds and suppressions, and firewall
// rules that carry `expires_at` are removed by the server once due, as an edit would remove them
// (re-rendered, pushed to devices, audited as the server's "expire"), one transaction per
// organization; and the console lists what expires soon. The items stay in their owning modules:
// this one asks the policies and firewall services. In an organization that stages its changes,
// an expiry is deployed at once to each device that had nothing else pending (deployments'
// deployServerChange), so that what expired stops running when due.

import type { ExpiringItem, ExpiringList } from '@palisade/contract';
import type { Database } from '../../db/client.js';
import type { Principal } from '../../plugins/auth.js';
import { recordAudit, serverActor } from '../audit/audit.service.js';
import { deployServerChange } from '../deployments/deployments.service.js';
import {
  expiringFirewallRules,
  orgsWithExpiredFirewallRules,
  removeExpiredFirewallRules,
} from '../firewall/firewall.service.js';
import {
  expiringPolicyItems,
  orgsWithExpiredPolicyItems,
  removeExpiredPolicyItems,
} from '../policies/policies.service.js';

const DAY_MS = 86_400_000;
const EXPIRY = serverActor('expiry');

const byExpiry = (a: ExpiringItem, b: ExpiringItem) =>
  a.expires_at.localeCompare(b.expires_at) || a.object_name.localeCompare(b.object_name);

export function createExpiryService(db: Database) {
  return {
    /** What of the principal's organization expires within `days` (or is already due). */
    async list(principal: Principal, days: number, now = new Date()): Promise<ExpiringList> {
      const until = new Date(now.getTime() + days * DAY_MS);
      const [policyItems, firewallItems] = await Promise.all([
        expiringPolicyItems(db, principal.orgId, until),
        expiringFirewallRules(db, principal.orgId, until),
      ]);
      return { data: [...policyItems, ...firewallItems].sort(byExpiry) };
    },

    /** Removes everything due by `now`; answers how many items went. */
    async expire(now = new Date()): Promise<number> {
      const orgs = new Set([
        ...(await orgsWithExpiredPolicyItems(db, now)),
        ...(await orgsWithExpiredFirewallRules(db, now)),
      ]);
      let count = 0;
      for (const orgId of orgs) {
        count += await db.transaction((tx) =>
          deployServerChange(tx, orgId, EXPIRY, async () => {
            const removed = [
              ...(await removeExpiredPolicyItems(tx, orgId, now)),
              ...(await removeExpiredFirewallRules(tx, orgId, now)),
            ];
            await recordAudit(
              tx,
              ...removed.map((item) => ({
                orgId,
                actor: EXPIRY,
                action: 'expire' as const,
                object: { type: item.object_type, id: item.object_id, name: item.object_name },
                before: {
                  kind: item.kind,
                  item: item.label,
                  expires_at: item.expires_at,
                  reason: item.reason,
                },
              })),
            );
            return removed.length;
          }),
        );
      }
      return count;
    },
  };
}

import type { Queryable } from '../../db/client.js';

/**
 * The policy backtest's own read (issue 20): the devices running the policy with their
 * profile's variables. The rules' signatures come from the rules module and the stored alerts
 * from the alerts module (`alerts/alert-windows.ts`).
 */
export const policyBacktestRepository = {
  async devicesRunning(db: Queryable, orgId: number, policyId: number) {
    return db.query<{ id: number; name: string; variables: Record<string, string> | null }>(
      `SELECT d.id, d.name, p.variables FROM devices d
         LEFT JOIN device_profiles p ON p.id = d.profile_id
        WHERE d.org_id = $1 AND d.policy_id = $2 ORDER BY d.id`,
      [orgId, policyId],
    );
  },
};

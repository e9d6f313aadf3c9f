import type { Queryable } from '../../db/client.js';

/** What an agent token is checked against: its device's organization and token version. */
export interface DeviceTokenRow {
  id: number;
  org_id: number;
  token_version: number;
}

export const deviceTokensRepository = {
  async findMany(db: Queryable, ids: readonly number[]): Promise<DeviceTokenRow[]> {
    return db.query<DeviceTokenRow>(
      'SELECT id, org_id, token_version FROM devices WHERE id = ANY($1::int[])',
      [[...ids]],
    );
  },
};

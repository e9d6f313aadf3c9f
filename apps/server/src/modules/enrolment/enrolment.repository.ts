import type { Queryable } from '../../db/client.js';

export interface EnrolmentTokenRow {
  /** bigint, as text: it only travels inside the token. */
  id: string;
  org_id: number;
  device_id: number;
  secret_hash: string;
}

export interface LatestTokenRow {
  expires_at: Date;
  used_at: Date | null;
  expired: boolean;
}

/** The enrolment_tokens table: only this module writes it. */
export const enrolmentRepository = {
  /** Stores a new token and drops the device's unused ones (issuing one revokes the others). */
  async replaceUnused(
    db: Queryable,
    token: {
      orgId: number;
      deviceId: number;
      secretHash: string;
      createdBy: number;
      ttlHours: number;
    },
  ): Promise<{ id: string; expires_at: Date }> {
    await db.query('DELETE FROM enrolment_tokens WHERE device_id = $1 AND used_at IS NULL', [
      token.deviceId,
    ]);
    const [row] = await db.query<{ id: string; expires_at: Date }>(
      `INSERT INTO enrolment_tokens (org_id, device_id, secret_hash, created_by, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(hours => $5))
       RETURNING id::text AS id, expires_at`,
      [token.orgId, token.deviceId, token.secretHash, token.createdBy, token.ttlHours],
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return row;
  },

  async latest(db: Queryable, deviceId: number): Promise<LatestTokenRow | undefined> {
    const [row] = await db.query<LatestTokenRow>(
      `SELECT expires_at, used_at, expires_at <= now() AS expired FROM enrolment_tokens
        WHERE device_id = $1 ORDER BY id DESC LIMIT 1`,
      [deviceId],
    );
    return row;
  },

  /** An unused, unexpired token by id; undefined for anything else. */
  async findUsable(db: Queryable, id: string): Promise<EnrolmentTokenRow | undefined> {
    const [row] = await db.query<EnrolmentTokenRow>(
      `SELECT id::text AS id, org_id, device_id, secret_hash FROM enrolment_tokens
        WHERE id = $1::bigint AND used_at IS NULL AND expires_at > now()`,
      [id],
    );
    return row;
  },

  /**
   * Marks the token used if it still is usable. The row lock makes a second, concurrent claim
   * wait for the first transaction and then find it used: false.
   */
  async claim(db: Queryable, id: string, address: string): Promise<boolean> {
    const rows = await db.query(
      `UPDATE enrolment_tokens SET used_at = now(), used_from = $2
        WHERE id = $1::bigint AND used_at IS NULL AND expires_at > now()
        RETURNING id`,
      [id, address],
    );
    return rows.length === 1;
  },
};

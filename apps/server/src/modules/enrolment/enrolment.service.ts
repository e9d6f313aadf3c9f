import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  ENROLMENT_TOKEN_PATTERN,
  ENROLMENT_TOKEN_PREFIX,
  type AgentEnrol,
  type AgentEnrolment,
  type DeviceEnrolment,
  type EnrolmentToken,
} from '@palisade/contract';
import type { Database } from '../../db/client.js';
import { AppError, notFound, rateLimited } from '../../lib/app-error.js';
import { hashSecret, verifyDecoy, verifySecret } from '../../lib/passwords.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { deviceActor, recordAudit, userActor } from '../audit/audit.service.js';
import { findDevice, lockDevice, replaceDevicePassword } from '../devices/devices.service.js';
import { countFailedAttempts, recordFailedAttempt } from '../auth/auth.service.js';
import { enrolmentRepository as repo } from './enrolment.repository.js';

/** Failed enrolments per address: a token's secret cannot be guessed, nor its id probed fast. */
export const ENROL_LIMIT = { windowSeconds: 15 * 60, perAddress: 10 } as const;
const SECRET_BYTES = 32;
/** 18 random bytes: 24 base64url characters. */
const DEVICE_PASSWORD_BYTES = 18;

const invalidToken = () =>
  new AppError(
    'enrolment_token_invalid',
    'This enrolment token is unknown, used, expired or replaced by a newer one: issue a new one in the console',
  );

export function createEnrolmentService(db: Database, log: FastifyBaseLogger) {
  /** The token's row when its secret matches; every other case costs the same argon2 check. */
  async function usableToken(text: string) {
    const match = ENROLMENT_TOKEN_PATTERN.exec(text);
    const row = match?.[1] ? await repo.findUsable(db, match[1]) : undefined;
    const secret = match?.[2] ?? text;
    if (!row) {
      await verifyDecoy(secret);
      return undefined;
    }
    return (await verifySecret(row.secret_hash, secret)) ? row : undefined;
  }

  return {
    async issue(principal: Principal, deviceId: number, ttlHours: number): Promise<EnrolmentToken> {
      assertRole(principal, ...EDITOR_ROLES);
      const secret = randomBytes(SECRET_BYTES).toString('base64url');
      const secretHash = await hashSecret(secret);
      return db.transaction(async (tx) => {
        // The device's row first, as an enrolment does: the two never wait on each other in turn.
        const device = await lockDevice(tx, principal.orgId, deviceId);
        if (!device) throw notFound('Device');
        const token = await repo.replaceUnused(tx, {
          orgId: principal.orgId,
          deviceId,
          secretHash,
          createdBy: principal.userId,
          ttlHours,
        });
        // The token's id and expiry, never its secret.
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'token_issued',
          object: { type: 'device', id: deviceId, name: device.name },
          after: { token_id: token.id, expires_at: token.expires_at.toISOString() },
        });
        return {
          token: `${ENROLMENT_TOKEN_PREFIX}${token.id}_${secret}`,
          expires_at: token.expires_at.toISOString(),
          device_id: deviceId,
        };
      });
    },

    async status(principal: Principal, deviceId: number): Promise<DeviceEnrolment> {
      if (!(await findDevice(db, principal.orgId, deviceId))) throw notFound('Device');
      const latest = await repo.latest(db, deviceId);
      if (!latest) return { status: 'none', expires_at: null, used_at: null };
      const status = latest.used_at ? 'used' : latest.expired ? 'expired' : 'active';
      return {
        status,
        expires_at: latest.expires_at.toISOString(),
        used_at: latest.used_at?.toISOString() ?? null,
      };
    },

    /** The token, once, for a fresh device password: the device's old one stops working. */
    async enrol(request: AgentEnrol, address: string): Promise<AgentEnrolment> {
      const limitKey = `enrol:ip:${address}`;
      const attempts = await countFailedAttempts(db, limitKey, ENROL_LIMIT.windowSeconds);
      if (attempts.failures >= ENROL_LIMIT.perAddress)
        throw rateLimited(attempts.retryAfterSeconds);
      const failed = async () => {
        await recordFailedAttempt(db, limitKey, ENROL_LIMIT.windowSeconds);
        return invalidToken();
      };

      const token = await usableToken(request.token);
      if (!token) throw await failed();
      const password = randomBytes(DEVICE_PASSWORD_BYTES).toString('base64url');
      const passwordHash = await hashSecret(password);
      const device = await db.transaction(async (tx) => {
        const locked = await lockDevice(tx, token.org_id, token.device_id);
        if (!locked || !(await repo.claim(tx, token.id, address))) return undefined;
        await replaceDevicePassword(tx, { orgId: token.org_id, id: locked.id, passwordHash });
        // The agent set its device's password: a change by the device, with its token's id.
        await recordAudit(tx, {
          orgId: token.org_id,
          actor: deviceActor(locked),
          action: 'enrol',
          object: { type: 'enrolment', id: locked.id, name: locked.name },
          after: { token_id: token.id, address, hostname: request.hostname ?? null },
        });
        return locked;
      });
      if (!device) throw await failed();
      log.info(
        {
          device_id: device.id,
          hostname: request.hostname,
          agent_version: request.agent_version,
          address,
        },
        'device enrolled',
      );
      return { device_id: device.id, device_name: device.name, password };
    },
  };
}

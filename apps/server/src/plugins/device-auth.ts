import DataLoader from 'dataloader';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.js';
import type { AccessClaims } from '../lib/tokens.js';
import {
  deviceTokensRepository,
  type DeviceTokenRow,
} from '../modules/devices/device-tokens.repository.js';

/** The device an agent token speaks for. */
export interface DevicePrincipal {
  deviceId: number;
  orgId: number;
  /** The token's version: bumping the device's (a new password) revokes the token. */
  tokenVersion: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    device: DevicePrincipal | null;
    deviceToken: AccessClaims | null;
  }
  interface FastifyInstance {
    /** onRequest hook of agent routes: a valid agent token of an existing device. */
    requireDevice: (request: FastifyRequest) => Promise<void>;
    /**
     * onRequest hook of the heartbeat and the bundle pull only: a valid agent token, not yet
     * checked against the device row. The heartbeat's own write (see HeartbeatBatch) and the
     * pull's read of the device's versions check the device and token version, which saves
     * the fleet's most frequent calls a query.
     */
    requireDeviceToken: (request: FastifyRequest) => Promise<void>;
  }
}

export const deviceAuthPlugin = fp(async (app: FastifyInstance) => {
  const { db, tokens } = app.ctx;
  app.decorateRequest('device', null);
  app.decorateRequest('deviceToken', null);
  const verifyToken = async (request: FastifyRequest): Promise<AccessClaims> => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const claims = match?.[1] ? await tokens.verify(match[1], 'palisade-agent') : undefined;
    if (!claims) throw new AppError('unauthorized', 'Could not validate device credentials');
    return claims;
  };
  app.decorate('requireDeviceToken', async (request: FastifyRequest) => {
    request.deviceToken = await verifyToken(request);
  });
  // A change that reaches a fleet brings its bundle pulls and applied reports at once: the
  // device rows of the requests read within two milliseconds are read by one query. Never
  // cached: each request sees the device as it is now, so a revoked token fails at once.
  const devices = new DataLoader<number, DeviceTokenRow | undefined>(
    async (ids) => {
      const rows = await deviceTokensRepository.findMany(db, ids);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id));
    },
    { cache: false, maxBatchSize: 5000, batchScheduleFn: (run) => setTimeout(run, 2) },
  );
  app.decorate('requireDevice', async (request: FastifyRequest) => {
    const claims = await verifyToken(request);
    const row = await devices.load(claims.subject);
    if (!row || row.token_version !== claims.tokenVersion) {
      throw new AppError('unauthorized', 'Could not validate device credentials');
    }
    request.device = { deviceId: row.id, orgId: row.org_id, tokenVersion: row.token_version };
  });
});

export function deviceTokenOf(request: FastifyRequest): AccessClaims {
  if (!request.deviceToken)
    throw new AppError('unauthorized', 'Could not validate device credentials');
  return request.deviceToken;
}

export function deviceOf(request: FastifyRequest): DevicePrincipal {
  if (!request.device) throw new AppError('unauthorized', 'Could not validate device credentials');
  return request.device;
}

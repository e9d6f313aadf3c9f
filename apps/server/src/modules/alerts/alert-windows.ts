import type { Queryable } from '../../db/client.js';
import {
  alertWindowsRepository as repo,
  type PolicyVersion,
  type Signature,
} from './alert-windows.repository.js';

export type { PolicyVersion, Signature };

/** Each device's stored alerts since `since`, all signatures together. */
export const alertsPerDevice = (db: Queryable, orgId: number, deviceIds: number[], since: Date) =>
  repo.deviceTotals(db, orgId, deviceIds, since);

/**
 * The stored alerts of the signatures since `since`, counted per device and signature, and
 * how many of them fired under a version of `policy` before the one given.
 */
export const signatureAlertsPerDevice = (
  db: Queryable,
  orgId: number,
  since: Date,
  signatures: Signature[],
  policy: PolicyVersion,
) => repo.signatureTotals(db, orgId, since, signatures, policy);

/** The stored alerts of the signatures since `since`, oldest first, at most `limit`. */
export const alertsOfSignatures = (
  db: Queryable,
  orgId: number,
  since: Date,
  signatures: Signature[],
  limit: number,
) => repo.alertsOf(db, orgId, since, signatures, limit);

export type WindowAlert = Awaited<ReturnType<typeof repo.alertsOf>>[number];

/** A device's latest stored alerts (its alert log), newest first, at most `limit`. */
export const latestDeviceAlerts = (db: Queryable, deviceId: number, limit: number) =>
  repo.latestOfDevice(db, deviceId, limit);

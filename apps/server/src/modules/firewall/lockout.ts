// The lock-out check of firewall and route changes (issue 18): before a ruleset reaches a
// device, the device must still reach the server (its agent's connection) and loopback; before
// its routes do, the path to the server must stay on the route it takes; unless an
// Administrator overrides it.

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { ChainPolicies, DeviceNetwork, FirewallRule } from '@palisade/contract';
import { checkLockout, checkRouteLockout } from '@palisade/firewall';
import type { ServerEndpoint } from '@palisade/firewall';
import type { Queryable } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { Principal } from '../../plugins/auth.js';
import { userActor, type AuditEntry } from '../audit/audit.service.js';

/** What a device's agent reported in its heartbeats (devices.server_endpoint). */
export type ReportedEndpoint = ServerEndpoint;

export interface LockoutGuard {
  override: boolean;
  /**
   * Filled when `override` let through a change the check would have refused: the device and
   * what it would lose, for the audit record of the override.
   */
  overridden: { device: string; message: string }[];
  /** The server as PUBLIC_URL names it, for devices whose agent reports no endpoint. */
  fallback: ServerEndpoint | null;
}

const fallbackByUrl = new Map<string, Promise<ServerEndpoint | null>>();

/** PUBLIC_URL's host (resolved) and port; null when its name does not resolve. */
export function publicEndpoint(publicUrl: string): Promise<ServerEndpoint | null> {
  let endpoint = fallbackByUrl.get(publicUrl);
  if (!endpoint) {
    endpoint = (async () => {
      const url = new URL(publicUrl);
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
      if (isIP(host) !== 0) return { address: host, port };
      try {
        return { address: (await lookup(host)).address, port };
      } catch {
        return null;
      }
    })();
    fallbackByUrl.set(publicUrl, endpoint);
  }
  return endpoint;
}

/** The guard for one request; only an Administrator may override. */
export async function lockoutGuard(
  principal: Principal,
  override: boolean | undefined,
  publicUrl: string,
): Promise<LockoutGuard> {
  if (override === true && principal.role !== 'Administrator') {
    throw new AppError(
      'validation_failed',
      'override_lockout: only an Administrator may override the lock-out check',
      [{ field: 'override_lockout', msg: 'Only an Administrator may override' }],
    );
  }
  return {
    override: override === true,
    overridden: [],
    fallback: await publicEndpoint(publicUrl),
  };
}

export interface LockoutSubject {
  name: string;
  rules: FirewallRule[];
  policies: ChainPolicies;
  variables: Record<string, string>;
  endpoint: ReportedEndpoint | null;
}

/** A device a previewed change would cut off (see collectLockouts). */
export interface LockoutFinding {
  device_id: number;
  device_name: string;
  message: string;
  problems: { field: string; msg: string }[];
  overridden: boolean;
}

// Transactions that preview a change: the check collects what it finds there instead of
// refusing, so that the preview can go on to say what every device would receive.
const findingsByTx = new WeakMap<Queryable, LockoutFinding[]>();

/** Within `tx`, the lock-out check records into `sink` rather than throwing. */
export function collectLockouts(tx: Queryable, sink: LockoutFinding[]): void {
  findingsByTx.set(tx, sink);
}

/** The check as a write in `tx` runs it: refuses, or records when the write is a preview. */
export function checkNoLockout(
  tx: Queryable,
  guard: LockoutGuard,
  device: LockoutSubject & { id: number },
): void {
  settle(tx, guard, device, lockoutRefusal(guard, device));
}

/**
 * The lock-out check of a device's routes (`@palisade/firewall` checkRouteLockout): refuses a
 * change that moves the path to the server onto another of Palisade's routes, or back to the
 * device's own, as checkNoLockout refuses a firewall change, and records it in a preview.
 */
export function checkNoRouteLockout(
  tx: Queryable,
  guard: LockoutGuard,
  device: {
    id: number;
    name: string;
    before: DeviceNetwork;
    after: DeviceNetwork;
    endpoint: ReportedEndpoint | null;
  },
): void {
  const server = device.endpoint ?? guard.fallback;
  if (server === null || isIP(server.address) === 0) return;
  const problem = checkRouteLockout(device.before, device.after, server);
  if (!problem) return;
  const error = new AppError(
    'lockout',
    `${device.name} may lose ${serverTraffic(server)}: ${problem.message}`,
    [{ field: problem.field, msg: problem.message }],
  );
  settle(tx, guard, device, { error, problem: problem.message });
}

/** Refused, let through by the override (and remembered for its audit record), or recorded. */
function settle(
  tx: Queryable,
  guard: LockoutGuard,
  device: { id: number; name: string },
  refusal: { error: AppError; problem: string } | null,
): void {
  if (!refusal) return;
  const sink = findingsByTx.get(tx);
  if (!sink) {
    if (!guard.override) throw refusal.error;
    guard.overridden.push({ device: device.name, message: refusal.problem });
    return;
  }
  // A preview shows what the check finds even when the request overrides it.
  sink.push({
    device_id: device.id,
    device_name: device.name,
    message: refusal.error.message,
    problems: refusal.error.details ?? [],
    overridden: guard.override,
  });
}

const serverTraffic = (server: ServerEndpoint) =>
  `its connection to the server (${isIP(server.address) === 6 ? `[${server.address}]` : server.address}:${server.port}/tcp)`;

/** What the check finds: the refusal to answer, and the first problem in its own words. */
function lockoutRefusal(
  guard: LockoutGuard,
  device: LockoutSubject,
): { error: AppError; problem: string } | null {
  const server = device.endpoint ?? guard.fallback;
  if (server === null || isIP(server.address) === 0) return null;
  const problems = checkLockout({ ...device, server });
  const first = problems[0];
  if (!first) return null;
  const what = first.traffic === 'server' ? serverTraffic(server) : 'loopback';
  const error = new AppError(
    'lockout',
    `${device.name} would lose ${what}: ${first.message}`,
    problems.map((problem) => ({
      field: problem.rule === null ? `policies.${problem.chain}` : `rules.${problem.rule}`,
      msg: problem.message,
    })),
  );
  return { error, problem: first.message };
}

/**
 * The audit record of an override, when it let through what the check would have refused:
 * which devices would have lost what. None when the change passed the check anyway.
 */
export function lockoutOverrideRecords(
  guard: LockoutGuard | undefined,
  principal: Principal,
  object: AuditEntry['object'],
): AuditEntry[] {
  if (!guard || guard.overridden.length === 0) return [];
  return [
    {
      orgId: principal.orgId,
      actor: userActor(principal),
      action: 'lockout_override',
      object,
      after: { devices: guard.overridden },
    },
  ];
}

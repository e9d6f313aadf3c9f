// The lock-out check of firewall changes (issue 18): before a ruleset reaches a device, the
// device must still reach the server (its agent's connection) and loopback, unless an
// Administrator overrides it.

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { ChainPolicies, FirewallRule } from '@palisade/contract';
import { checkLockout } from '@palisade/firewall';
import type { ServerEndpoint } from '@palisade/firewall';
import { AppError } from '../../lib/app-error.js';
import type { Principal } from '../../plugins/auth.js';

/** What a device's agent reported in its heartbeats (devices.server_endpoint). */
export type ReportedEndpoint = ServerEndpoint;

export interface LockoutGuard {
  override: boolean;
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
  return { override: override === true, fallback: await publicEndpoint(publicUrl) };
}

export interface LockoutSubject {
  name: string;
  rules: FirewallRule[];
  policies: ChainPolicies;
  variables: Record<string, string>;
  endpoint: ReportedEndpoint | null;
}

/** Throws the 422 `lockout` naming the device and the missing rule. */
export function assertNoLockout(guard: LockoutGuard, device: LockoutSubject): void {
  if (guard.override) return;
  const server = device.endpoint ?? guard.fallback;
  if (server === null || isIP(server.address) === 0) return;
  const problems = checkLockout({ ...device, server });
  const first = problems[0];
  if (!first) return;
  const what =
    first.traffic === 'server'
      ? `its connection to the server (${isIP(server.address) === 6 ? `[${server.address}]` : server.address}:${server.port}/tcp)`
      : 'loopback';
  throw new AppError(
    'lockout',
    `${device.name} would lose ${what}: ${first.message}`,
    problems.map((problem) => ({
      field: problem.rule === null ? `policies.${problem.chain}` : `rules.${problem.rule}`,
      msg: problem.message,
    })),
  );
}

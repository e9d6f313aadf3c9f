import type {
  ChainPolicies,
  DeviceNetwork,
  FirewallRule,
  VersionDiff,
  VersionKind,
} from '@palisade/contract';
import { renderFirewall, renderRoutes } from '@palisade/firewall';
import type { Queryable } from '../../db/client.js';
import { AppError, notFound } from '../../lib/app-error.js';
import {
  describeNat,
  firewallRulesDiff,
  rulesDiff,
  textDiff,
  variablesDiff,
} from '../../lib/render-diff.js';
import { policyFiles, renderedContent, versionAt, type StoredVersion } from './versions.service.js';

interface RulesetDefinition {
  policies: ChainPolicies;
  rules: FirewallRule[];
}

/** How a ruleset is rendered for a compare: with one device's variables (or the defaults). */
export interface CompareContext {
  variables?: Record<string, string>;
}

async function both(
  db: Queryable,
  kind: VersionKind,
  orgId: number,
  id: number,
  a: number,
  b: number,
): Promise<[StoredVersion, StoredVersion]> {
  const [va, vb] = await Promise.all([
    versionAt(db, kind, orgId, id, a),
    versionAt(db, kind, orgId, id, b),
  ]);
  if (!va) throw notFound(`Version ${a}`);
  if (!vb) throw notFound(`Version ${b}`);
  return [va, vb];
}

async function policyText(db: Queryable, version: StoredVersion) {
  const content = await renderedContent(db, version.sha256);
  if (content === null) {
    throw new AppError(
      'conflict',
      `Version ${version.version}'s rendered text is not stored (it predates the version history)`,
    );
  }
  return policyFiles(content);
}

/** The top-level fields of two definitions that differ. */
function changedFields(a: unknown, b: unknown): string[] {
  const x = (a ?? {}) as Record<string, unknown>;
  const y = (b ?? {}) as Record<string, unknown>;
  return [...new Set([...Object.keys(x), ...Object.keys(y)])]
    .filter((key) => JSON.stringify(x[key]) !== JSON.stringify(y[key]))
    .sort();
}

const nftables = (definition: RulesetDefinition, variables: Record<string, string>) =>
  renderFirewall({ rules: definition.rules, policies: definition.policies, variables }).script;

const routes = (network: DeviceNetwork) => renderRoutes(network, { managed: true }) ?? '';

/**
 * Versions `a` and `b` of one object compared (what changed going from a to b). The caller has
 * checked the object is the organization's; versions are read by organization too.
 */
export async function compareVersions(
  db: Queryable,
  target: { kind: VersionKind; orgId: number; id: number },
  a: number,
  b: number,
  context: CompareContext = {},
): Promise<VersionDiff> {
  const { kind, orgId, id } = target;
  const [va, vb] = await both(db, kind, orgId, id, a, b);
  const base = { kind, a, b };
  switch (kind) {
    case 'policy': {
      const [ta, tb] = await Promise.all([policyText(db, va), policyText(db, vb)]);
      return {
        ...base,
        rules: rulesDiff(ta.rules, tb.rules),
        thresholds: textDiff(ta.thresholds, tb.thresholds, {
          names: [`threshold.config v${a}`, `threshold.config v${b}`],
        }),
        changed_fields: changedFields(va.definition, vb.definition),
      };
    }
    case 'firewall_ruleset': {
      const da = va.definition as RulesetDefinition;
      const db_ = vb.definition as RulesetDefinition;
      const variables = context.variables ?? {};
      return {
        ...base,
        firewall_rules: firewallRulesDiff(da, db_),
        nftables: textDiff(nftables(da, variables), nftables(db_, variables), {
          names: [`nftables v${a}`, `nftables v${b}`],
        }),
      };
    }
    case 'profile': {
      const da = (va.definition as { variables: Record<string, string> }).variables;
      const db_ = (vb.definition as { variables: Record<string, string> }).variables;
      return { ...base, variables: variablesDiff(da, db_) };
    }
    case 'device_network': {
      const na = (va.definition as { network: DeviceNetwork }).network;
      const nb = (vb.definition as { network: DeviceNetwork }).network;
      return {
        ...base,
        routes: textDiff(routes(na), routes(nb), { names: [`routes v${a}`, `routes v${b}`] }),
        nat: textDiff(describeNat(na), describeNat(nb), { names: [`NAT v${a}`, `NAT v${b}`] }),
      };
    }
  }
}

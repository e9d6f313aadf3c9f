import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/client.js';
import { renderPolicy, type RenderOutput } from './policy-render.js';
import { policiesRepository as repo, type PolicyParts } from './policies.repository.js';
import { recordVersions, storeContents } from '../versions/versions.service.js';

/** What a policy's version follows: its rules file and its threshold.config. */
export function renderedSha256(output: Pick<RenderOutput, 'rules' | 'thresholds'>): string {
  return createHash('sha256')
    .update(output.rules)
    .update('\0')
    .update(output.thresholds)
    .digest('hex');
}

/** Everything a policy's rendering depends on besides the rules themselves. */
const contentKey = (parts: PolicyParts) =>
  JSON.stringify([
    parts.groups.map((g) => g.id).sort((a, b) => a - b),
    parts.overrides,
    parts.matchers,
    parts.thresholds,
    parts.resolveFlowbits,
  ]);

/**
 * Re-renders many policies and records their versions in a constant number of statements: the
 * parts of all of them, the rules of all their groups in one read, one UPDATE. Policies with the
 * same groups, overrides, matchers and thresholds render the same bytes, so each distinct
 * content renders once (an organization often runs one policy shape on many device groups).
 * Returns the ids whose version moved.
 */
export async function rerenderPolicies(
  tx: Queryable,
  ids: number[],
  options: RerenderOptions = {},
): Promise<number[]> {
  if (ids.length === 0) return [];
  const partsById = await repo.partsOf(tx, ids);
  const shapes = new Map<string, { parts: PolicyParts; ids: number[] }>();
  for (const [id, parts] of partsById) {
    const key = contentKey(parts);
    const shape = shapes.get(key);
    if (shape) shape.ids.push(id);
    else shapes.set(key, { parts, ids: [id] });
  }
  const all = [...partsById.values()];
  // Read only what can render, as renderPolicyById does, for the whole batch at once: a rule
  // disabled in its file only when some policy may turn it on; metadata only when some
  // matcher reads it. Reading more than one policy needs does not change its output.
  const enables = all.some((p) => p.matchers.some((m) => m.kind === 'enable'));
  const enabledByOverride = all.flatMap((p) =>
    p.overrides.filter((o) => o.action === 'enable' || o.action === 'drop').map((o) => o.rule_id),
  );
  const rules = await repo.rulesOfGroups(tx, [...new Set(all.flatMap((p) => groupIdsOf(p)))], {
    metadata: all.some((p) => p.matchers.some((m) => /^\s*metadata:/i.test(m.matcher))),
    flowbits: all.some((p) => p.resolveFlowbits),
    ...(enables ? {} : { enabledOr: [...new Set(enabledByOverride)] }),
  });

  const renders: PolicyRenderRecord[] = [];
  for (const { parts, ids: same } of shapes.values()) {
    const groups = new Set(groupIdsOf(parts));
    const output = await renderPolicy({
      rules: rules.filter((rule) => rule.groupIds.some((id) => groups.has(id))),
      overrides: new Map(parts.overrides.map((o) => [o.rule_id, o.action])),
      matchers: parts.matchers,
      thresholds: parts.thresholds,
      resolveFlowbits: parts.resolveFlowbits,
    });
    const sha256 = renderedSha256(output);
    const body = policyContent(output);
    for (const id of same) renders.push({ id, sha256, ruleCount: output.ruleCount, body, parts });
  }
  // Baselines recorded by the versions migration name a hash whose text is stored here.
  if (options.storeAll) await storeContents(tx, renders);
  // In id order, as every writer locks them: two writers reaching the same policies then wait
  // for each other instead of deadlocking.
  return recordPolicyRenders(
    tx,
    renders.sort((a, b) => a.id - b.id),
    options.actor ?? 'server',
  );
}

export interface RerenderOptions {
  /** Who caused the render (a user's e-mail, a job's name): recorded with each new version. */
  actor?: string;
  /** Store every rendered text, not only those of new versions (after the versions migration). */
  storeAll?: boolean;
}

export interface PolicyRenderRecord {
  id: number;
  sha256: string;
  ruleCount: number;
  /** policyContent(output): what the version store keeps under sha256. */
  body: string;
  /** What it rendered from; read only for a version that moved when not given. */
  parts?: PolicyParts;
}

/** The stored form of a render: its SHA-256 is renderedSha256 of the same output. */
export const policyContent = (output: Pick<RenderOutput, 'rules' | 'thresholds'>): string =>
  `${output.rules}\0${output.thresholds}`;

export type PolicyDefinition = ReturnType<typeof policyDefinition>;

/** What a policy's rollback restores: everything its rendering depends on besides the rules. */
export function policyDefinition(parts: PolicyParts) {
  return {
    group_ids: groupIdsOf(parts).sort((a, b) => a - b),
    overrides: parts.overrides,
    matchers: parts.matchers,
    thresholds: parts.thresholds,
    resolve_flowbits: parts.resolveFlowbits,
  };
}

/**
 * Writes the renders' hashes and counts (one UPDATE) and records a version in the version store
 * for each policy whose version moved (one statement). Answers the ids whose version moved.
 */
export async function recordPolicyRenders(
  tx: Queryable,
  renders: PolicyRenderRecord[],
  actor: string,
  rollback?: { restoredFrom: number },
): Promise<number[]> {
  const moved = await repo.recordRenders(tx, renders);
  if (moved.length === 0) return [];
  const byId = new Map(renders.map((r) => [r.id, r]));
  const unread = moved.filter((m) => byId.get(m.id)?.parts === undefined).map((m) => m.id);
  const read = unread.length > 0 ? await repo.partsOf(tx, unread) : new Map<number, PolicyParts>();
  await recordVersions(
    tx,
    'policy',
    moved.flatMap((m) => {
      const render = byId.get(m.id);
      const parts = render?.parts ?? read.get(m.id);
      if (!render || !parts) return [];
      return [
        {
          orgId: m.org_id,
          id: m.id,
          definition: policyDefinition(parts),
          summary: { rule_count: render.ruleCount },
          actor,
          ...(rollback ? { cause: 'rollback' as const, restoredFrom: rollback.restoredFrom } : {}),
          rendered: { version: m.version, sha256: render.sha256, body: render.body },
        },
      ];
    }),
  );
  return moved.map((m) => m.id);
}

const groupIdsOf = (parts: PolicyParts) => parts.groups.map((g) => g.id);

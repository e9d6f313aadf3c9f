import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/client.js';
import { renderPolicy, type RenderOutput } from './policy-render.js';
import { policiesRepository as repo, type PolicyParts } from './policies.repository.js';

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
export async function rerenderPolicies(tx: Queryable, ids: number[]): Promise<number[]> {
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

  const renders: { id: number; sha256: string; ruleCount: number }[] = [];
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
    for (const id of same) renders.push({ id, sha256, ruleCount: output.ruleCount });
  }
  // In id order, as every writer locks them: two writers reaching the same policies then wait
  // for each other instead of deadlocking.
  return repo.recordRenders(
    tx,
    renders.sort((a, b) => a.id - b.id),
  );
}

const groupIdsOf = (parts: PolicyParts) => parts.groups.map((g) => g.id);

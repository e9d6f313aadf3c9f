/** Query keys of the rule-sources feature; mutations invalidate through these. */
export const ruleSourcesKeys = {
  all: ['rule-sources'] as const,
  lists: ['rule-sources', 'list'] as const,
  source: (id: number) => ['rule-sources', 'source', id] as const,
  updates: (sourceId: number) => ['rule-sources', 'source', sourceId, 'updates'] as const,
  update: (sourceId: number, updateId: number) =>
    ['rule-sources', 'source', sourceId, 'updates', updateId] as const,
  changes: (sourceId: number, updateId: number) =>
    ['rule-sources', 'source', sourceId, 'updates', updateId, 'changes'] as const,
  catalogue: (suricataVersion: string) => ['rule-sources', 'catalogue', suricataVersion] as const,
  ruleChanges: (gid: number, sid: number) => ['rule-sources', 'rule-changes', gid, sid] as const,
};

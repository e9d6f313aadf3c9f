import type { ExpiringItem } from '@palisade/contract';

/** The editor holding an expiring item: its policy, or its firewall ruleset. */
export function editorPath(item: Pick<ExpiringItem, 'object_type' | 'object_id'>): string {
  switch (item.object_type) {
    case 'policy':
      return `/policies?tab=policies&policy=${item.object_id}`;
    case 'firewall_ruleset':
      return `/firewall?tab=rulesets&ruleset=${item.object_id}`;
  }
}

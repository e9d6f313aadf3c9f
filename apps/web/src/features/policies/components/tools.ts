import type { ComponentType, ReactNode } from 'react';
import type { RuleSummary } from '@palisade/contract';
import type { FetchRules } from '../api/override-rules';

/** A rule picker over some groups; the app gives the rules feature's (features stay apart). */
export type RulePickerComponent = ComponentType<{
  groups: { id: number; name: string }[];
  actions: (picked: RuleSummary[], clear: () => void) => ReactNode;
}>;

/** What the Policies screen needs from outside the policies feature, wired by the app. */
export interface PolicyTools {
  /** Every rule group, to add to a policy. */
  groups: { id: number; name: string }[];
  groupsLoading: boolean;
  /** The organization's users (Administrators only), to choose a restricted policy's editors. */
  users: { id: number; email: string }[] | undefined;
  RulePicker: RulePickerComponent;
  fetchRules: FetchRules;
}

/** Who may do what on the screen. */
export interface PolicyAccess {
  /** Not a Viewer: may create policies. */
  canWrite: boolean;
  /** Administrator: may choose a restricted policy's editors. */
  isAdmin: boolean;
}

// /alerts, with the rule sources' "changed in update …" note beside an alert's rule (the
// composition root wires one feature into the other, STYLE.md §1).
import { AlertsPage } from '../../features/alerts/components/AlertsPage';
import { RuleChangeNote } from '../../features/rule-sources/components/RuleChangeNote';

export function Component() {
  return <AlertsPage RuleNote={RuleChangeNote} />;
}

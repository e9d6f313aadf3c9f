export { PoliciesPage as Component } from '../../features/policies/components/PoliciesPage';

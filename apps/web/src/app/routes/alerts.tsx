export { AlertsPage as Component } from '../../features/alerts/components/AlertsPage';

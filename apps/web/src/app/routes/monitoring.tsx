export { MonitoringPage as Component } from '../../features/monitoring/components/MonitoringPage';

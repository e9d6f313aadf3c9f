export { DevicesPage as Component } from '../../features/devices/components/DevicesPage';

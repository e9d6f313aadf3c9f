export { FirewallPage as Component } from '../../features/firewall/components/FirewallPage';

export { AccountPage as Component } from '../../features/auth/components/AccountPage';

export { LoginPage as Component } from '../../features/auth/components/LoginPage';

export { RecoverPasswordPage as Component } from '../../features/auth/components/RecoverPasswordPage';

export { LostPasswordPage as Component } from '../../features/auth/components/LostPasswordPage';

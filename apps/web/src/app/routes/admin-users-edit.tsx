export { UserEditPage as Component } from '../../features/users/components/UserEditPage';

export { UserCreatePage as Component } from '../../features/users/components/UserCreatePage';

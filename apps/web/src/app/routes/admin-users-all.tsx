export { UsersListPage as Component } from '../../features/users/components/UsersListPage';

export { AuditLogPage as Component } from '../../features/audit/components/AuditLogPage';

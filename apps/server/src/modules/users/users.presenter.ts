import type { User } from '@palisade/contract';
import type { UserRow } from './users.repository.js';

/** Row → API shape: the password hash and token version never leave the server. */
export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    role: row.role,
    is_active: row.is_active,
    organization_id: row.org_id,
    organization: row.organization,
    created_at: row.created_at.toISOString(),
  };
}

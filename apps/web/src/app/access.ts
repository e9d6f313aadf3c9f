import type { User } from '@palisade/contract';

/** Spec §6: administrator access = role Administrator and active; always true with auth disabled. */
export function hasAdminAccess(user: User | null, authDisabled: boolean): boolean {
  if (authDisabled) return true;
  return user !== null && user.role === 'Administrator' && user.is_active;
}

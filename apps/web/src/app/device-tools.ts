// Wires what the devices and firewall screens pick from, loaded through the features that
// own them (a feature does not import another: STYLE.md §1).
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DeviceTools } from '../features/devices/components/tools';
import { rulesetsListQueryOptions } from '../features/firewall/api/list-rulesets';
import { policiesListQueryOptions } from '../features/policies/api/list-policies';
import { profilesListQueryOptions } from '../features/profiles/api/list-profiles';
import { useMe } from '../features/auth/api/me';
import { hasAdminAccess } from './access';
import { session } from '../lib/session';
import { useStore } from '../lib/store';

const byName = (items: readonly { id: number; name: string }[]) =>
  items
    .map(({ id, name }) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));

/** Viewers only read (the server refuses their writes with 403, which would log them out). */
export function useCanWrite(): boolean {
  const user = useMe();
  const { authDisabled } = useStore(session);
  return authDisabled || (user !== null && user.role !== 'Viewer');
}

export function useDeviceTools(): DeviceTools {
  const canWrite = useCanWrite();
  const user = useMe();
  const { authDisabled } = useStore(session);
  const canUpgrade = hasAdminAccess(user, authDisabled);
  const profiles = useQuery(profilesListQueryOptions);
  const policies = useQuery(policiesListQueryOptions);
  const firewalls = useQuery(rulesetsListQueryOptions);
  return useMemo(
    () => ({
      profiles: byName(profiles.data?.data ?? []),
      policies: byName(policies.data?.data ?? []),
      firewalls: byName(firewalls.data?.data ?? []),
      canWrite,
      canUpgrade,
      canOverrideLockout: canUpgrade,
    }),
    [profiles.data, policies.data, firewalls.data, canWrite, canUpgrade],
  );
}

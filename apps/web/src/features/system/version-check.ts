import type { Components } from '@palisade/contract';
import { notifyInfo } from '../../components/notifications/notify';
import { StorageKey, storage } from '../../lib/storage';
import { fetchComponents } from './api/components';

function readCached(): Components | null {
  const raw = storage.get(StorageKey.componentVersions);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as Components;
  } catch {
    return null;
  }
}

const canonical = (value: Components | null): string =>
  value === null
    ? 'null'
    : JSON.stringify(
        Object.keys(value.packages)
          .sort()
          .map((name) => [name, value.packages[name]?.installed, value.packages[name]?.registry]),
      );

export function updateAvailable(components: Components): boolean {
  return Object.values(components.packages).some(
    (entry) => entry.registry !== '' && entry.installed !== entry.registry,
  );
}

/** True when the notice should show: the versions changed and one has an update. */
export function shouldNotify(cached: Components | null, fresh: Components): boolean {
  return canonical(cached) !== canonical(fresh) && updateAvailable(fresh);
}

/**
 * Spec §4: cached versions first, then the server's; if they differ and an update is
 * available, an info notice. Failures are only logged (§8).
 */
export async function checkComponentVersions(): Promise<void> {
  const cached = readCached();
  try {
    const fresh = await fetchComponents();
    storage.set(StorageKey.componentVersions, JSON.stringify(fresh));
    if (shouldNotify(cached, fresh)) notifyInfo('system.updateAvailable');
  } catch (error) {
    console.warn('component version check failed', error);
  }
}

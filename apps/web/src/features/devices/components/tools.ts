import type { IdOption } from '../../../components/form/FormIdSelect';

/** What the devices screens pick from; the composition root loads them from other features. */
export interface DeviceTools {
  profiles: readonly IdOption[];
  policies: readonly IdOption[];
  firewalls: readonly IdOption[];
  /** Not a Viewer: may create, edit, flush and delete. */
  canWrite: boolean;
  /** Administrator: may ask devices to upgrade their agent. */
  canUpgrade: boolean;
  /** Administrator: may apply a firewall assignment the server says would cut a device off. */
  canOverrideLockout: boolean;
}

export const nameOf = (options: readonly IdOption[], id: number | null): string | null =>
  id === null ? null : (options.find((o) => o.id === id)?.name ?? `#${id}`);

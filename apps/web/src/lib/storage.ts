/** Absent outside a browser (unit tests run in Node). */
const local = (): Storage | undefined =>
  typeof localStorage === 'undefined' ? undefined : localStorage;

/** localStorage access that never throws: failures are logged as warnings and ignored (spec §4). */
export const storage = {
  get(key: string): string | null {
    try {
      return local()?.getItem(key) ?? null;
    } catch (error) {
      console.warn(`localStorage read of ${key} failed`, error);
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      local()?.setItem(key, value);
    } catch (error) {
      console.warn(`localStorage write of ${key} failed`, error);
    }
  },
  remove(key: string): void {
    try {
      local()?.removeItem(key);
    } catch (error) {
      console.warn(`localStorage removal of ${key} failed`, error);
    }
  },
};

/** Local storage keys named by the spec (§9); the persisted `main` state uses its own key. */
export const StorageKey = {
  token: 'token',
  componentVersions: 'component_versions',
  mainState: 'palisade.main',
} as const;

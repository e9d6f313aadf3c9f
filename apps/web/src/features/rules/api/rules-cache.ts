import type { RuleDetail, RuleSummary } from '@palisade/contract';
import { session } from '../../../lib/session';

/** A cached rule: its summary, and its full text once it was asked for. */
export type CachedRule = RuleSummary & Partial<Pick<RuleDetail, 'text'>>;

/** Spec §3: the rules list keeps data, total, currentPage and pageSize. */
export interface RulesListState {
  data: RuleSummary[];
  total: number;
  /** 1-based, as offset = (currentPage − 1) × pageSize. */
  currentPage: number;
  pageSize: number;
  filter: string;
}

/** The subset of Storage the cache needs (localStorage in the browser, a fake in tests). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Saved form: the page as sids, so each rule is stored once. */
interface Saved {
  list: Omit<RulesListState, 'data'> & { data: number[] };
  rules: CachedRule[];
  selected: number[];
}

export const RULES_CACHE_KEY = 'palisade.rules';

const EMPTY_LIST: RulesListState = {
  data: [],
  total: 0,
  currentPage: 1,
  pageSize: 5000,
  filter: '',
};

/** Quota errors differ by browser: QuotaExceededError, code 22, Firefox's code 1014. */
export function isQuotaError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return (
    name === 'QuotaExceededError' ||
    name === 'NS_ERROR_DOM_QUOTA_REACHED' ||
    code === 22 ||
    code === 1014
  );
}

/**
 * The spec's client-side rules cache, keyed by sid (§3, §4). Every fetched page is stored;
 * the cache then holds that page's rules plus every rule still selected, so a selection
 * survives paging and searching. It is saved to browser storage; when the quota is
 * exceeded it stays in memory only (and any stale saved copy is dropped).
 */
export class RulesCache {
  private list: RulesListState = EMPTY_LIST;
  private bySid = new Map<number, CachedRule>();
  private selected = new Set<number>();
  private listeners = new Set<() => void>();
  private version = 0;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** True when the last save did not fit in browser storage. */
  memoryOnly = false;

  /**
   * `saveDelayMs` coalesces saves: ticking checkboxes on a 5000-rule page must not serialise
   * the whole cache on every click. 0 saves at once (tests).
   */
  constructor(
    private readonly store: KeyValueStore | undefined,
    private readonly key = RULES_CACHE_KEY,
    private readonly saveDelayMs = 0,
  ) {
    this.restore();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Changes on every update, for useSyncExternalStore. */
  getVersion = (): number => this.version;

  getList(): RulesListState {
    return this.list;
  }

  get(sid: number): CachedRule | undefined {
    return this.bySid.get(sid);
  }

  size(): number {
    return this.bySid.size;
  }

  /** A fetched page: kept as the list, and the cache is rebuilt around it. */
  storePage(page: RulesListState): void {
    const next = new Map<number, CachedRule>();
    for (const sid of this.selected) {
      const kept = this.bySid.get(sid);
      if (kept !== undefined) next.set(sid, kept);
    }
    for (const rule of page.data) {
      const known = this.bySid.get(rule.sid);
      // A rule whose text was fetched keeps it unless the rule itself changed.
      const text = known?.updated_at === rule.updated_at ? known.text : undefined;
      next.set(rule.sid, text === undefined ? rule : { ...rule, text });
    }
    this.list = page;
    this.bySid = next;
    this.changed();
  }

  /** Full rules from /rulesmulti or a save: their text joins the cache. */
  putDetails(rules: RuleDetail[]): void {
    for (const rule of rules) this.bySid.set(rule.sid, rule);
    this.changed();
  }

  isSelected(sid: number): boolean {
    return this.selected.has(sid);
  }

  setSelected(rules: RuleSummary[], on: boolean): void {
    for (const rule of rules) {
      if (on) {
        this.selected.add(rule.sid);
        if (!this.bySid.has(rule.sid)) this.bySid.set(rule.sid, rule);
      } else {
        this.selected.delete(rule.sid);
      }
    }
    this.changed();
  }

  clearSelection(): void {
    this.selected.clear();
    this.changed();
  }

  selectedRules(): CachedRule[] {
    return [...this.selected].flatMap((sid) => {
      const rule = this.bySid.get(sid);
      return rule === undefined ? [] : [rule];
    });
  }

  /** Forgets everything, in memory and in storage (on logout: the next user sees none of it). */
  reset(): void {
    this.list = EMPTY_LIST;
    this.bySid = new Map();
    this.selected = new Set();
    this.changed();
  }

  /** Writes a pending save now. */
  flush(): void {
    if (this.saveTimer === undefined) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.save();
  }

  private changed(): void {
    this.version += 1;
    if (this.saveDelayMs <= 0) this.save();
    else this.saveTimer ??= setTimeout(() => this.flush(), this.saveDelayMs);
    for (const listener of this.listeners) listener();
  }

  private save(): void {
    if (this.store === undefined) return;
    if (this.bySid.size === 0 && this.list.total === 0) {
      try {
        this.store.removeItem(this.key);
        this.memoryOnly = false;
      } catch {
        this.memoryOnly = true;
      }
      return;
    }
    const saved: Saved = {
      list: { ...this.list, data: this.list.data.map((rule) => rule.sid) },
      rules: [...this.bySid.values()],
      selected: [...this.selected],
    };
    try {
      this.store.setItem(this.key, JSON.stringify(saved));
      this.memoryOnly = false;
    } catch (error) {
      this.memoryOnly = true;
      if (!isQuotaError(error)) console.warn('rules cache could not be saved', error);
      try {
        this.store.removeItem(this.key);
      } catch {
        // storage unusable: memory it is
      }
    }
  }

  private restore(): void {
    let raw: string | null = null;
    try {
      raw = this.store?.getItem(this.key) ?? null;
    } catch (error) {
      console.warn('rules cache could not be read', error);
    }
    if (raw === null) return;
    try {
      const saved = JSON.parse(raw) as Partial<Saved>;
      for (const rule of saved.rules ?? []) this.bySid.set(rule.sid, rule);
      if (saved.list !== undefined && Array.isArray(saved.list.data)) {
        const data = saved.list.data.flatMap((sid) => {
          const rule = this.bySid.get(sid);
          return rule === undefined ? [] : [rule];
        });
        this.list = { ...saved.list, data };
      }
      for (const sid of saved.selected ?? []) if (this.bySid.has(sid)) this.selected.add(sid);
    } catch (error) {
      console.warn('rules cache was not readable and is dropped', error);
    }
  }
}

const browserStore = (): KeyValueStore | undefined => {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
};

/** Saves of the browser's cache are coalesced over this long. */
const SAVE_DELAY_MS = 500;

/** The rules list's cache for the whole console session, forgotten on logout. */
export const rulesCache = new RulesCache(browserStore(), RULES_CACHE_KEY, SAVE_DELAY_MS);
session.subscribe(() => {
  if (session.get().status === 'loggedOut' && rulesCache.size() > 0) rulesCache.reset();
});

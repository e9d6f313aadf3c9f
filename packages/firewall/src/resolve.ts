// Address and port lists → exact sets. Profile variables are Snort/Suricata lists (`[a,!b]`,
// `!$HOME_NET`, `any`, ports `[80,8000:8080]`) read with @palisade/rules; the fields of a rule
// are the console's simpler lists (`a, b c`, ranges `a-b`, a leading `!` negates the whole list).

import { parseAddressSpec, parsePortSpec } from '@palisade/rules';
import type { AddressSpec, PortSpec } from '@palisade/rules';
import type { Interval } from './intervals.js';
import { complement, intersect, isFull, normalize } from './intervals.js';
import type { Family } from './ip.js';
import { MAX, parseAddressToken } from './ip.js';

export interface AddressSet {
  4: Interval[];
  6: Interval[];
}

export const MAX_PORT = 65535n;
const ALL: AddressSet = { 4: [{ lo: 0n, hi: MAX[4] }], 6: [{ lo: 0n, hi: MAX[6] }] };
/** Stands for a variable whose value is not known yet (validation without a profile). */
const SOME: AddressSet = { 4: [{ lo: 0n, hi: 0n }], 6: [{ lo: 0n, hi: 0n }] };

/** Suricata's defaults: a sensor always has these two, even when the profile does not. */
const BUILT_IN: Record<string, string> = {
  HOME_NET: '[192.168.0.0/16,10.0.0.0/8,172.16.0.0/12]',
  EXTERNAL_NET: '!$HOME_NET',
};

/** The server's rule for profiles: `HTTP_PORTS`, `SSH_PORTS`, `FTP_PORT` hold ports. */
export const isPortVariable = (name: string): boolean => /(_|^)PORTS?$/.test(name);

type Result<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Variables of one device profile, resolved on demand and cached. Without variables (`null`),
 * any well-formed `$NAME` is accepted as a list of unknown content.
 */
export class Scope {
  private readonly addresses = new Map<string, Result<AddressSet>>();
  private readonly ports = new Map<string, Result<Interval[]>>();
  private readonly resolving = new Set<string>();

  constructor(private readonly variables: Record<string, string> | null) {}

  private value(name: string): string | undefined {
    if (this.variables === null) return undefined;
    return Object.hasOwn(this.variables, name) ? this.variables[name] : BUILT_IN[name];
  }

  address(name: string): Result<AddressSet> {
    if (isPortVariable(name)) return { ok: false, message: `$${name} is a port variable` };
    const cached = this.addresses.get(name);
    if (cached !== undefined) return cached;
    const result = this.resolve(name, (text) => {
      const parsed = parseAddressSpec(text);
      if (!parsed.ok) return { ok: false, message: specError(text, parsed.error) };
      return this.addressSpec(parsed.spec);
    });
    if (result === null) return { ok: true, value: SOME };
    this.addresses.set(name, result);
    return result;
  }

  port(name: string): Result<Interval[]> {
    if (!isPortVariable(name)) {
      return { ok: false, message: `$${name} is not a port variable (those end in _PORTS)` };
    }
    const cached = this.ports.get(name);
    if (cached !== undefined) return cached;
    const result = this.resolve(name, (text) => {
      const parsed = parsePortSpec(text);
      if (!parsed.ok) return { ok: false, message: specError(text, parsed.error) };
      return this.portSpec(parsed.spec);
    });
    if (result === null) return { ok: true, value: [{ lo: 1n, hi: 1n }] };
    this.ports.set(name, result);
    return result;
  }

  /** null: unknown but acceptable (no profile yet). */
  private resolve<T>(name: string, read: (text: string) => Result<T>): Result<T> | null {
    const text = this.value(name);
    if (text === undefined) {
      return this.variables === null ? null : { ok: false, message: `unknown variable $${name}` };
    }
    if (this.resolving.has(name)) return { ok: false, message: `$${name} refers to itself` };
    this.resolving.add(name);
    try {
      const result = read(text);
      return result.ok ? result : { ok: false, message: `$${name}: ${result.message}` };
    } finally {
      this.resolving.delete(name);
    }
  }

  private addressSpec(spec: AddressSpec): Result<AddressSet> {
    switch (spec.kind) {
      case 'any':
        return { ok: true, value: ALL };
      case 'variable':
        return this.address(spec.name);
      case 'address': {
        const token = parseAddressToken(spec.value);
        if (!token.ok) return token;
        const set: AddressSet = { 4: [], 6: [] };
        set[token.family].push(token.interval);
        return { ok: true, value: set };
      }
      case 'not': {
        const inner = this.addressSpec(spec.spec);
        return inner.ok ? { ok: true, value: complementSet(inner.value) } : inner;
      }
      case 'list':
        return snortList(spec.items, notInner, (item) => this.addressSpec(item), {
          all: ALL,
          union: unionSets,
          minus: (a, b) => intersectSets(a, complementSet(b)),
        });
    }
  }

  private portSpec(spec: PortSpec): Result<Interval[]> {
    switch (spec.kind) {
      case 'any':
        return { ok: true, value: [{ lo: 0n, hi: MAX_PORT }] };
      case 'variable':
        return this.port(spec.name);
      case 'port':
        return { ok: true, value: [{ lo: BigInt(spec.port), hi: BigInt(spec.port) }] };
      case 'range':
        return {
          ok: true,
          value: [{ lo: BigInt(spec.from ?? 0), hi: BigInt(spec.to ?? Number(MAX_PORT)) }],
        };
      case 'not': {
        const inner = this.portSpec(spec.spec);
        return inner.ok ? { ok: true, value: complement(inner.value, MAX_PORT) } : inner;
      }
      case 'list':
        return snortList(spec.items, notInner, (item) => this.portSpec(item), {
          all: [{ lo: 0n, hi: MAX_PORT }],
          union: (items) => normalize(items.flat()),
          minus: (a, b) => intersect(a, complement(b, MAX_PORT)),
        });
    }
  }
}

interface Algebra<T> {
  all: T;
  /** Of many at once: one sort, not one per item (lists of thousands stay fast). */
  union: (items: T[]) => T;
  minus: (a: T, b: T) => T;
}

/** Snort's list: the union of the plain items (everything if none) minus the `!` items. */
function snortList<S, T>(
  items: readonly S[],
  inner: (item: S) => S | null,
  read: (item: S) => Result<T>,
  algebra: Algebra<T>,
): Result<T> {
  const included: T[] = [];
  const excluded: T[] = [];
  for (const item of items) {
    const negated = inner(item);
    const result = read(negated ?? item);
    if (!result.ok) return result;
    (negated === null ? included : excluded).push(result.value);
  }
  const base = included.length === 0 ? algebra.all : algebra.union(included);
  return { ok: true, value: algebra.minus(base, algebra.union(excluded)) };
}

function notInner<S extends AddressSpec | PortSpec>(item: S): S | null {
  return item.kind === 'not' ? (item.spec as S) : null;
}

function specError(text: string, error: { offset: number; message: string }): string {
  return `${error.message} at "${text.slice(error.offset, error.offset + 40)}"`;
}

export function unionSets(items: AddressSet[]): AddressSet {
  // Every item is normalized already (a token, a resolved variable): one needs no work.
  if (items.length === 1 && items[0] !== undefined) return items[0];
  return {
    4: normalize(items.flatMap((set) => set[4])),
    6: normalize(items.flatMap((set) => set[6])),
  };
}

function intersectSets(a: AddressSet, b: AddressSet): AddressSet {
  return { 4: intersect(a[4], b[4]), 6: intersect(a[6], b[6]) };
}

function complementSet(a: AddressSet): AddressSet {
  return { 4: complement(a[4], MAX[4]), 6: complement(a[6], MAX[6]) };
}

/** How a list constrains one family: not at all, never, or by membership (maybe negated). */
export type FamilyMatch =
  { kind: 'all' } | { kind: 'none' } | { kind: 'match'; negate: boolean; intervals: Interval[] };

export function constrain(intervals: Interval[], max: bigint, negate: boolean): FamilyMatch {
  if (intervals.length === 0) return negate ? { kind: 'all' } : { kind: 'none' };
  if (isFull(intervals, max)) return negate ? { kind: 'none' } : { kind: 'all' };
  return { kind: 'match', negate, intervals };
}

/** A field of a rule as written in the console, read against a scope. */
export interface ListField<T> {
  negate: boolean;
  value: T;
  /** Set when the whole list is one `$VARIABLE` (it then matches through the variable's set). */
  variable: string | null;
}

export type FieldResult<T> = { ok: true; field: ListField<T> } | { ok: false; messages: string[] };

function splitList(text: string): { negate: boolean; tokens: string[] } | { error: string } {
  let rest = text.trim();
  let negate = false;
  if (rest.startsWith('!')) {
    negate = true;
    rest = rest.slice(1).trim();
    if (rest === '') return { error: "'!' without a list after it" };
  }
  const tokens = rest.split(/[\s,]+/).filter((token) => token !== '');
  return { negate, tokens };
}

const VARIABLE = /^\$([A-Za-z0-9_]+)$/;

function readList<T>(
  text: string,
  all: T,
  merge: (items: T[]) => T,
  readToken: (token: string) => Result<T>,
  readVariable: (name: string) => Result<T>,
): FieldResult<T> {
  if (text.trim() === '') return { ok: true, field: { negate: false, value: all, variable: null } };
  const split = splitList(text);
  if ('error' in split) return { ok: false, messages: [split.error] };
  const messages: string[] = [];
  const values: T[] = [];
  let variable: string | null = null;
  for (const token of split.tokens) {
    let result: Result<T>;
    if (token.startsWith('!')) {
      result = { ok: false, message: `"${token}": only a leading '!' negates, the whole list` };
    } else if (token.toLowerCase() === 'any') {
      result = { ok: true, value: all };
    } else if (token.startsWith('$')) {
      const name = VARIABLE.exec(token)?.[1];
      result =
        name === undefined
          ? { ok: false, message: `"${token}" is not a variable name` }
          : readVariable(name);
      if (name !== undefined && split.tokens.length === 1) variable = name;
    } else {
      result = readToken(token);
    }
    if (result.ok) values.push(result.value);
    else messages.push(result.message);
  }
  if (messages.length > 0) return { ok: false, messages };
  return { ok: true, field: { negate: split.negate, value: merge(values), variable } };
}

export function readAddressField(text: string, scope: Scope): FieldResult<AddressSet> {
  return readList<AddressSet>(
    text,
    ALL,
    unionSets,
    (token) => {
      const parsed = parseAddressToken(token);
      if (!parsed.ok) return parsed;
      const set: AddressSet = { 4: [], 6: [] };
      set[parsed.family].push(parsed.interval);
      return { ok: true, value: set };
    },
    (name) => scope.address(name),
  );
}

export function readPortField(text: string, scope: Scope): FieldResult<Interval[]> {
  return readList<Interval[]>(
    text,
    [{ lo: 0n, hi: MAX_PORT }],
    (items) => (items.length === 1 && items[0] !== undefined ? items[0] : normalize(items.flat())),
    readPortToken,
    (name) => scope.port(name),
  );
}

function readPortToken(token: string): Result<Interval[]> {
  const match = /^(\d{1,5})(?:[-:](\d{1,5}))?$/.exec(token);
  const lo = match?.[1] === undefined ? NaN : Number(match[1]);
  const hi = match?.[2] === undefined ? lo : Number(match[2]);
  if (Number.isNaN(lo)) return { ok: false, message: `"${token}" is not a port or a range` };
  if (lo > 65535 || hi > 65535) return { ok: false, message: `"${token}": ports end at 65535` };
  if (lo > hi) return { ok: false, message: `"${token}" runs backwards` };
  return { ok: true, value: [{ lo: BigInt(lo), hi: BigInt(hi) }] };
}

export function familyOf(set: AddressSet, family: Family): Interval[] {
  return normalize(set[family]);
}

// IPv4 and IPv6 text ⇄ bigint, and the address tokens users write: an address, a CIDR block
// (host bits are cleared, as iptables does) or a range `first-last` of one family.

import type { Interval } from './intervals.js';
import { prefixLength } from './intervals.js';

export type Family = 4 | 6;

export const MAX = { 4: (1n << 32n) - 1n, 6: (1n << 128n) - 1n } as const;
const BITS = { 4: 32, 6: 128 } as const;

export function parseIPv4(text: string): bigint | null {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 46; /* a final '.' closes the last part */
    if (c === 46) {
      if (digits === 0 || part > 255) return null;
      value = value * 256 + part;
      part = 0;
      digits = 0;
      dots++;
      continue;
    }
    if (c < 48 || c > 57) return null;
    if (digits > 0 && part === 0) return null; // leading zero: '010' is not an address
    part = part * 10 + (c - 48);
    if (++digits > 3) return null;
  }
  return dots === 4 ? BigInt(value) : null;
}

export function parseIPv6(text: string): bigint | null {
  if (!/^[0-9A-Fa-f:.]+$/.test(text)) return null;
  const lastColon = text.lastIndexOf(':');
  if (lastColon < 0) return null;
  let head = text;
  let tail: bigint | null = null;
  let wanted = 8;
  if (text.includes('.')) {
    tail = parseIPv4(text.slice(lastColon + 1));
    if (tail === null) return null;
    head = text.slice(0, lastColon + 1);
    if (!head.endsWith('::')) head = head.slice(0, -1);
    wanted = 6;
  }
  const gap = head.indexOf('::');
  if (gap !== head.lastIndexOf('::')) return null;
  let groups: string[];
  if (gap >= 0) {
    const left = head.slice(0, gap);
    const right = head.slice(gap + 2);
    const l = left === '' ? [] : left.split(':');
    const r = right === '' ? [] : right.split(':');
    const missing = wanted - l.length - r.length;
    if (missing < 1) return null;
    groups = [...l, ...Array<string>(missing).fill('0'), ...r];
  } else {
    groups = head.split(':');
    if (groups.length !== wanted) return null;
  }
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9A-Fa-f]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return tail === null ? value : (value << 32n) | tail;
}

export function parseIP(text: string): { family: Family; value: bigint } | null {
  if (text.includes(':')) {
    const value = parseIPv6(text);
    return value === null ? null : { family: 6, value };
  }
  const value = parseIPv4(text);
  return value === null ? null : { family: 4, value };
}

export function formatIP(family: Family, value: bigint): string {
  if (family === 4) {
    const n = Number(value);
    return `${Math.floor(n / 16777216)}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
  }
  const groups: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(Number((value >> shift) & 0xffffn));
  // RFC 5952: the longest run of two or more zero groups becomes '::' (the first on a tie).
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** One element as nftables and iproute2 read it: `a`, `a/len` or `a-b`. */
export function formatInterval(family: Family, interval: Interval): string {
  if (interval.lo === interval.hi) return formatIP(family, interval.lo);
  const prefix = prefixLength(interval, BITS[family]);
  if (prefix !== null) return `${formatIP(family, interval.lo)}/${prefix}`;
  return `${formatIP(family, interval.lo)}-${formatIP(family, interval.hi)}`;
}

export type AddressToken =
  { ok: true; family: Family; interval: Interval } | { ok: false; message: string };

/** A CIDR block's network and prefix; host bits cleared. */
export function parseCidr(
  text: string,
): { family: Family; interval: Interval; prefix: number } | null {
  const slash = text.indexOf('/');
  const ip = parseIP(slash < 0 ? text : text.slice(0, slash));
  if (ip === null) return null;
  const bits = BITS[ip.family];
  let prefix: number = bits;
  if (slash >= 0) {
    const digits = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(digits) || Number(digits) > bits) return null;
    prefix = Number(digits);
  }
  const host = (1n << BigInt(bits - prefix)) - 1n;
  const lo = ip.value & ~host & MAX[ip.family];
  return { family: ip.family, interval: { lo, hi: lo | host }, prefix };
}

export function parseAddressToken(token: string): AddressToken {
  const dash = token.indexOf('-');
  if (dash >= 0) {
    const first = parseIP(token.slice(0, dash));
    const last = parseIP(token.slice(dash + 1));
    if (first === null || last === null) {
      return { ok: false, message: `"${token}" is not an address range (first-last)` };
    }
    if (first.family !== last.family) {
      return { ok: false, message: `"${token}" mixes IPv4 and IPv6` };
    }
    if (first.value > last.value) {
      return { ok: false, message: `"${token}" runs backwards` };
    }
    return { ok: true, family: first.family, interval: { lo: first.value, hi: last.value } };
  }
  const cidr = parseCidr(token);
  if (cidr === null) {
    return { ok: false, message: `"${token}" is not an IP address, CIDR block or range` };
  }
  return { ok: true, family: cidr.family, interval: cidr.interval };
}

// Simulated IDS alerts in eve.json shape, naming the signatures of the device's own policy
// (read from the bundle's rules text). Sources and targets come from a fixed population of
// internal hosts (private ranges) and outside addresses (public ranges), both Zipf-weighted so a
// few talk a lot; the rate is a quiet Poisson background with occasional bursts (a scan or a
// noisy host firing one signature family for tens of seconds).

import { parseRulesFile, type Rule } from '@palisade/rules';
import type { EveEvent } from '../eve/tailer.js';
import { drawIndex, Random, seedFrom, sharedZipfTable } from './random.js';

export interface Signature {
  gid: number;
  sid: number;
  rev: number;
  msg: string;
  classtype: string | null;
  severity: number;
  protocol: string;
  inbound: boolean;
  destPort: number | null;
  action: string;
}

/** Default priorities of the classtypes of Suricata's classification.config. */
const CLASS_PRIORITY: Record<string, number> = {
  'attempted-admin': 1,
  'attempted-user': 1,
  'inappropriate-content': 1,
  'policy-violation': 1,
  'shellcode-detect': 1,
  'successful-admin': 1,
  'successful-user': 1,
  'trojan-activity': 1,
  'unsuccessful-user': 1,
  'web-application-attack': 1,
  'command-and-control': 1,
  'exploit-kit': 1,
  'domain-c2': 1,
  'credential-theft': 1,
  'targeted-activity': 1,
  'attempted-dos': 2,
  'attempted-recon': 2,
  'bad-unknown': 2,
  'default-login-attempt': 2,
  'denial-of-service': 2,
  'misc-attack': 2,
  'non-standard-protocol': 2,
  'rpc-portmap-decode': 2,
  'successful-dos': 2,
  'successful-recon-largescale': 2,
  'successful-recon-limited': 2,
  'suspicious-filename-detect': 2,
  'suspicious-login': 2,
  'system-call-detect': 2,
  'unusual-client-port-connection': 2,
  'web-application-activity': 2,
  'coin-mining': 2,
  'social-engineering': 2,
  'external-ip-check': 2,
  'pup-activity': 2,
  'icmp-event': 3,
  'misc-activity': 3,
  'network-scan': 3,
  'not-suspicious': 3,
  'protocol-command-decode': 3,
  'string-detect': 3,
  unknown: 3,
  'tcp-connection': 4,
};

const APP_LAYER: Record<string, { proto: 'TCP' | 'UDP'; ports: number[] }> = {
  http: { proto: 'TCP', ports: [80, 8080, 8000] },
  http1: { proto: 'TCP', ports: [80] },
  http2: { proto: 'TCP', ports: [443] },
  tls: { proto: 'TCP', ports: [443, 8443] },
  ssl: { proto: 'TCP', ports: [443] },
  dns: { proto: 'UDP', ports: [53] },
  smb: { proto: 'TCP', ports: [445] },
  ssh: { proto: 'TCP', ports: [22] },
  ftp: { proto: 'TCP', ports: [21] },
  smtp: { proto: 'TCP', ports: [25, 587] },
  dcerpc: { proto: 'TCP', ports: [135] },
  krb5: { proto: 'TCP', ports: [88] },
  ntp: { proto: 'UDP', ports: [123] },
  snmp: { proto: 'UDP', ports: [161] },
  dhcp: { proto: 'UDP', ports: [67] },
  sip: { proto: 'UDP', ports: [5060] },
  rdp: { proto: 'TCP', ports: [3389] },
  modbus: { proto: 'TCP', ports: [502] },
};
const TCP_PORTS = [22, 80, 443, 445, 3389, 8080, 25, 23, 3306, 1433];
const UDP_PORTS = [53, 123, 161, 1900, 5353, 137];

function firstPort(spec: string | undefined): number | null {
  if (!spec) return null;
  const match = /^\[?(\d{1,5})/.exec(spec.trim());
  const port = match?.[1] === undefined ? NaN : Number(match[1]);
  return port > 0 && port < 65536 ? port : null;
}

export function signaturesOf(rulesText: string): Signature[] {
  const { rules } = parseRulesFile(rulesText);
  return rules
    .filter((r: Rule) => r.enabled && r.sid > 0)
    .map((r: Rule) => {
      const source = r.source?.address ?? '';
      const protocol = (r.protocol ?? 'tcp').split(':')[0]?.toLowerCase() ?? 'tcp';
      return {
        gid: r.gid,
        sid: r.sid,
        rev: r.rev ?? 1,
        msg: r.msg ?? `sid ${r.sid}`,
        classtype: r.classtype,
        severity: r.priority ?? CLASS_PRIORITY[r.classtype ?? 'unknown'] ?? 3,
        protocol,
        inbound: !/HOME_NET/.test(source) || /!\s*\$HOME_NET/.test(source),
        destPort: firstPort(r.destination?.port),
        action: r.action,
      };
    });
}

/** An IPv4 address packed in a number: a fleet's devices keep hundreds each. */
const packed = (a: number, b: number, c: number, d: number) =>
  ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
const dotted = (n: number) => `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;

function publicAddress(random: Random): number {
  for (;;) {
    const a = random.int(1, 223);
    const b = random.int(0, 255);
    const reserved =
      a === 10 ||
      a === 127 ||
      a === 0 ||
      a === 100 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 198 && b < 20);
    if (!reserved) return packed(a, b, random.int(0, 255), random.int(1, 254));
  }
}

function privateAddress(random: Random, net: number): number {
  switch (net) {
    case 0:
      return packed(10, random.int(0, 3), random.int(0, 20), random.int(2, 250));
    case 1:
      return packed(192, 168, random.int(0, 10), random.int(2, 250));
    default:
      return packed(172, random.int(16, 20), random.int(0, 10), random.int(2, 250));
  }
}

function timestamp(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2026-01-02T03:04:05.678Z
  const micros = Math.floor((ms * 1000) % 1000);
  return `${iso.slice(0, 23)}${String(micros).padStart(3, '0')}+0000`;
}

export interface AlertSimulationOptions {
  deviceId: number;
  /** Mean alerts per second outside bursts (default 0.2). */
  rate?: number;
  /** Bursts (a scan, a worm) per hour on average (default 6). */
  burstsPerHour?: number;
  iface?: string;
}

/** Policies a fleet process keeps parsed at once (its devices seldom run more than a few). */
const SHARED_POLICIES = 8;
const parsedPolicies = new Map<string, readonly Signature[]>();

/**
 * signaturesOf, parsed once per distinct rules text for the whole process: a fleet's devices
 * running one policy share one array (each parse held the text and its signatures per device).
 */
export function sharedSignatures(rulesText: string): readonly Signature[] {
  let signatures = parsedPolicies.get(rulesText);
  if (signatures) {
    // Most recently used last: the oldest policy goes first when the map is full.
    parsedPolicies.delete(rulesText);
  } else {
    signatures = Object.freeze(signaturesOf(rulesText));
    if (parsedPolicies.size >= SHARED_POLICIES) {
      const oldest = parsedPolicies.keys().next().value;
      if (oldest !== undefined) parsedPolicies.delete(oldest);
    }
  }
  parsedPolicies.set(rulesText, signatures);
  return signatures;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

export class AlertSimulation {
  private readonly random: Random;
  private signatures: readonly Signature[] = [];
  private sigTable: readonly number[] = [];
  /**
   * Which signatures are this device's common ones: rank r is signature (offset + r × stride)
   * mod n, a permutation of the shared array (stride coprime to n) that costs two numbers.
   */
  private order = { offset: 0, stride: 1 };
  private readonly internal: Uint32Array;
  private readonly external: Uint32Array;
  private readonly hostTable: readonly number[];
  private readonly attackerTable: readonly number[];
  private burst: { until: number; sig: Signature; attacker: string; rate: number } | undefined;
  private flowId: number;

  constructor(private readonly options: AlertSimulationOptions) {
    this.random = new Random(seedFrom(options.deviceId, 'alerts'));
    const net = this.random.int(0, 2);
    this.internal = Uint32Array.from({ length: 60 }, () => privateAddress(this.random, net));
    this.external = Uint32Array.from({ length: 400 }, () => publicAddress(this.random));
    this.hostTable = sharedZipfTable(this.internal.length, 0.9);
    this.attackerTable = sharedZipfTable(this.external.length, 1.2);
    this.flowId = this.random.int(1, 2 ** 30) * 1024;
  }

  /** The policy changed: alerts name its signatures from now on. */
  setRules(rulesText: string): void {
    const signatures = sharedSignatures(rulesText);
    const n = Math.max(1, signatures.length);
    let stride = 1 + Math.floor(this.random.next() * (n - 1));
    while (gcd(stride, n) !== 1) stride = (stride % n) + 1;
    this.order = { offset: Math.floor(this.random.next() * n), stride };
    this.signatures = signatures;
    this.sigTable = sharedZipfTable(signatures.length, 1.1);
    this.burst = undefined;
  }

  get signatureCount(): number {
    return this.signatures.length;
  }

  /** Current alerts per second (for the simulated CPU load). */
  get currentRate(): number {
    return (this.options.rate ?? 0.2) + (this.burst?.rate ?? 0);
  }

  /** Alerts for the `seconds` ending at `now`. */
  tick(now: number, seconds: number): EveEvent[] {
    if (this.signatures.length === 0 || seconds <= 0) return [];
    const r = this.random;
    if (this.burst && now > this.burst.until) this.burst = undefined;
    if (!this.burst && r.next() < (seconds * (this.options.burstsPerHour ?? 6)) / 3600) {
      this.burst = {
        until: now + (10 + r.next() * 50) * 1000,
        sig: this.drawSignature(),
        attacker: this.drawExternal(),
        rate: 2 + r.next() * 20,
      };
    }
    const events: EveEvent[] = [];
    const background = r.poisson((this.options.rate ?? 0.2) * seconds);
    for (let i = 0; i < background; i++) {
      events.push(this.event(this.drawSignature(), this.drawExternal(), now, seconds));
    }
    if (this.burst) {
      const count = r.poisson(this.burst.rate * seconds);
      for (let i = 0; i < count; i++) {
        events.push(this.event(this.burst.sig, this.burst.attacker, now, seconds));
      }
    }
    return events.sort((a, b) => String(a.timestamp).localeCompare(String(b.timestamp)));
  }

  private drawSignature(): Signature {
    const rank = drawIndex(this.sigTable, this.random);
    const { offset, stride } = this.order;
    return this.signatures[(offset + rank * stride) % this.signatures.length] as Signature;
  }

  private drawExternal(): string {
    return dotted(this.external[drawIndex(this.attackerTable, this.random)] ?? 0);
  }

  private event(sig: Signature, outside: string, now: number, seconds: number): EveEvent {
    const r = this.random;
    const inside = dotted(this.internal[drawIndex(this.hostTable, r)] ?? 0);
    const app = APP_LAYER[sig.protocol];
    const proto =
      app?.proto ?? (sig.protocol === 'udp' ? 'UDP' : sig.protocol === 'icmp' ? 'ICMP' : 'TCP');
    const servicePort =
      sig.destPort ?? (app ? r.pick(app.ports) : r.pick(proto === 'UDP' ? UDP_PORTS : TCP_PORTS));
    const [src, dest] = sig.inbound ? [outside, inside] : [inside, outside];
    this.flowId += r.int(1, 4096);
    const blocked = sig.action === 'drop' || sig.action === 'reject';
    const pkts = r.int(1, 40);
    const event: EveEvent = {
      timestamp: timestamp(now - r.next() * seconds * 1000),
      flow_id: this.flowId,
      in_iface: this.options.iface ?? 'eth0',
      event_type: 'alert',
      src_ip: src,
      ...(proto === 'ICMP' ? {} : { src_port: r.int(1024, 65535) }),
      dest_ip: dest,
      ...(proto === 'ICMP' ? { icmp_type: 8, icmp_code: 0 } : { dest_port: servicePort }),
      proto,
      pkt_src: 'wire/pcap',
      alert: {
        action: blocked ? 'blocked' : 'allowed',
        gid: sig.gid,
        signature_id: sig.sid,
        rev: sig.rev,
        signature: sig.msg,
        category: sig.classtype ?? '',
        severity: sig.severity,
      },
      flow: {
        pkts_toserver: pkts,
        pkts_toclient: r.int(0, pkts),
        bytes_toserver: pkts * r.int(60, 1400),
        bytes_toclient: r.int(0, pkts) * r.int(60, 1400),
        start: timestamp(now - (1 + r.next() * 30) * 1000),
      },
    };
    if (app) event.app_proto = sig.protocol === 'ssl' ? 'tls' : sig.protocol;
    return event;
  }
}

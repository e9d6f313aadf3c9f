// Sample data the project writes itself, for tests whose point is not real-world data but that
// need realistic input when the shared corpus is absent: Suricata eve.json events (alerts with
// varied signatures, addresses, severities and HTTP, DNS and TLS fields, among flow and protocol
// events) and a few rule files naming the same signatures. Deterministic for a given seed.

/** A small seeded generator (mulberry32): the same seed gives the same data on every machine. */
export function generator(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (low, high) => low + Math.floor(next() * (high - low + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  /** Early entries far more often than late ones, as in real traffic. */
  const skewed = (list) => list[Math.floor(list.length * next() ** 2.2)];
  return { next, int, pick, skewed };
}

const CLASSTYPES = {
  'attempted-recon': ['Attempted Information Leak', 2],
  'attempted-admin': ['Attempted Administrator Privilege Gain', 1],
  'trojan-activity': ['A Network Trojan was detected', 1],
  'policy-violation': ['Potential Corporate Privacy Violation', 1],
  'bad-unknown': ['Potentially Bad Traffic', 2],
  'web-application-attack': ['Web Application Attack', 1],
  'misc-activity': ['Misc activity', 3],
  'protocol-command-decode': ['Generic Protocol Command Decode', 3],
  'not-suspicious': ['Not Suspicious Traffic', 3],
};

/**
 * The signatures of the sample: protocol as in the rule, app layer of the events, the service
 * port, and whether the attacker is outside (inbound) or a host of ours is (outbound).
 */
export const SAMPLE_SIGNATURES = [
  ['tcp', null, 22, true, 2001219, 20, 'ET SCAN Potential SSH Scan', 'attempted-recon'],
  [
    'tcp',
    null,
    3389,
    true,
    2023753,
    3,
    'ET SCAN MS Terminal Server Traffic on Non-standard Port',
    'attempted-recon',
  ],
  [
    'tcp',
    null,
    1433,
    true,
    2010935,
    3,
    'ET SCAN Suspicious inbound to MSSQL port 1433',
    'bad-unknown',
  ],
  [
    'tcp',
    null,
    445,
    true,
    2024218,
    2,
    'ET EXPLOIT Possible ETERNALBLUE MS17-010 Echo Response',
    'attempted-admin',
  ],
  [
    'http',
    'http',
    80,
    true,
    2011768,
    9,
    'ET WEB_SERVER PHP tags in HTTP POST',
    'web-application-attack',
  ],
  [
    'http',
    'http',
    80,
    true,
    2012887,
    4,
    'ET POLICY Http Client Body contains pass= in cleartext',
    'policy-violation',
  ],
  [
    'http',
    'http',
    8080,
    false,
    2013028,
    7,
    'ET POLICY curl User-Agent Outbound',
    'attempted-recon',
  ],
  [
    'http',
    'http',
    80,
    false,
    2018959,
    4,
    'ET POLICY PE EXE or DLL Windows file download HTTP',
    'policy-violation',
  ],
  [
    'http',
    'http',
    80,
    false,
    2021076,
    3,
    'ET HUNTING SUSPICIOUS Dotted Quad Host MZ Response',
    'bad-unknown',
  ],
  ['dns', 'dns', 53, false, 2027863, 4, 'ET INFO Observed DNS Query to .cloud TLD', 'bad-unknown'],
  [
    'dns',
    'dns',
    53,
    false,
    2014702,
    5,
    'ET DNS Non-DNS or Non-Compliant DNS traffic on DNS port Opcode 6 or 7 set',
    'policy-violation',
  ],
  [
    'udp',
    'dns',
    53,
    false,
    2240001,
    2,
    'SURICATA DNS malformed request data',
    'protocol-command-decode',
  ],
  [
    'tls',
    'tls',
    443,
    false,
    2028371,
    2,
    'ET JA3 Hash - Possible Malware - Fake Firefox Font Update',
    'trojan-activity',
  ],
  [
    'tls',
    'tls',
    443,
    false,
    2033966,
    1,
    'ET INFO Observed Discord Domain in TLS SNI',
    'misc-activity',
  ],
  [
    'udp',
    null,
    1900,
    false,
    2019102,
    3,
    'ET SCAN Zeus SSDP Discovery Traffic Detected',
    'misc-activity',
  ],
  [
    'udp',
    null,
    123,
    true,
    2019010,
    4,
    'ET DOS Possible NTP DDoS Inbound Frequent Un-Authed MON_LIST Requests',
    'attempted-recon',
  ],
  ['udp', null, 161, true, 2101411, 13, 'GPL SNMP public access udp', 'attempted-recon'],
  ['icmp', null, null, true, 2100384, 6, 'GPL ICMP_INFO PING', 'misc-activity'],
  ['icmp', null, null, true, 2100366, 8, 'GPL ICMP_INFO PING *NIX', 'misc-activity'],
  [
    'tcp',
    null,
    25,
    false,
    2008581,
    5,
    'ET SMTP Possible spam outbound to many recipients',
    'policy-violation',
  ],
  [
    'tcp',
    null,
    4444,
    false,
    2025644,
    3,
    'ET TROJAN Possible Metasploit Payload Common Construct Bind_API',
    'trojan-activity',
  ],
  [
    'tcp',
    null,
    6667,
    false,
    2000348,
    11,
    'ET CHAT IRC Channel JOIN on non-standard port',
    'policy-violation',
  ],
].map(([protocol, app, port, inbound, sid, rev, msg, classtype]) => ({
  protocol,
  app,
  port,
  inbound,
  sid,
  rev,
  msg,
  classtype,
  severity: CLASSTYPES[classtype][1],
  category: CLASSTYPES[classtype][0],
}));

const INSIDE = [
  '10.20.1.15',
  '10.20.1.23',
  '10.20.4.7',
  '192.168.10.5',
  '192.168.10.44',
  '10.20.8.120',
  '192.168.10.201',
  '10.20.1.2',
];
const OUTSIDE = [
  '198.51.100.23',
  '203.0.113.77',
  '185.220.101.4',
  '45.155.205.99',
  '192.0.2.146',
  '91.240.118.172',
  '203.0.113.5',
  '198.51.100.200',
  '162.142.125.10',
];
const HOSTS = [
  'updates.example.com',
  'cdn.example.net',
  'portal.example.org',
  '203.0.113.77',
  'files.example.cloud',
];
const URLS = [
  '/index.php',
  '/wp-login.php',
  '/admin/login',
  '/download/setup.exe',
  '/api/v2/session',
  '/?id=1%27%20OR%201=1',
];
const AGENTS = [
  'curl/8.5.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0 Safari/537.36',
  'python-requests/2.31.0',
  'Wget/1.21.4',
];
const DOMAINS = [
  'login.example.cloud',
  'cdn.example.net',
  'x3k9q.example.cloud',
  'time.example.org',
  'discord.com',
];

/** Suricata's timestamp: local time (here UTC-5) to the microsecond, with the zone offset. */
function timestamp(ms) {
  const local = new Date(ms - 5 * 3_600_000).toISOString().slice(0, 23);
  return `${local}${String((ms * 7) % 1000).padStart(3, '0')}-0500`;
}

function alertEvent(r, sig, ms, flowId) {
  const [inside, outside] = [r.skewed(INSIDE), r.skewed(OUTSIDE)];
  const [src, dest] = sig.inbound ? [outside, inside] : [inside, outside];
  const proto =
    sig.protocol === 'icmp' ? 'ICMP' : ['udp', 'dns'].includes(sig.protocol) ? 'UDP' : 'TCP';
  const pkts = r.int(1, 30);
  const event = {
    timestamp: timestamp(ms),
    flow_id: flowId,
    in_iface: 'eth0',
    event_type: 'alert',
    src_ip: src,
    ...(proto === 'ICMP' ? {} : { src_port: r.int(1024, 65535) }),
    dest_ip: dest,
    ...(proto === 'ICMP' ? { icmp_type: 8, icmp_code: 0 } : { dest_port: sig.port }),
    proto,
    pkt_src: 'wire/pcap',
    alert: {
      action: r.next() < 0.1 ? 'blocked' : 'allowed',
      gid: 1,
      signature_id: sig.sid,
      rev: sig.rev,
      signature: sig.msg,
      category: sig.category,
      severity: sig.severity,
    },
  };
  if (sig.app !== null) event.app_proto = sig.app;
  if (sig.app === 'http') {
    event.http = {
      hostname: r.pick(HOSTS),
      url: r.pick(URLS),
      http_user_agent: r.pick(AGENTS),
      http_content_type: r.pick(['text/html', 'application/octet-stream', 'application/json']),
      http_method: r.pick(['GET', 'GET', 'POST']),
      protocol: 'HTTP/1.1',
      status: r.pick([200, 200, 301, 404, 403]),
      length: r.int(0, 250_000),
    };
  } else if (sig.app === 'dns') {
    event.dns = {
      query: [
        {
          type: 'query',
          id: r.int(1, 65535),
          rrname: r.pick(DOMAINS),
          rrtype: r.pick(['A', 'AAAA', 'TXT']),
        },
      ],
    };
  } else if (sig.app === 'tls') {
    event.tls = {
      sni: r.pick(DOMAINS),
      version: r.pick(['TLS 1.2', 'TLS 1.3']),
      ja3: { hash: 'e7d705a3286e19ea42f587b344ee6865' },
    };
  }
  event.direction = 'to_server';
  event.flow = {
    pkts_toserver: pkts,
    pkts_toclient: r.int(0, pkts),
    bytes_toserver: pkts * r.int(60, 1400),
    bytes_toclient: r.int(0, pkts) * r.int(60, 1400),
    start: timestamp(ms - r.int(0, 30_000)),
  };
  return event;
}

function otherEvent(r, ms, flowId) {
  const base = {
    timestamp: timestamp(ms),
    flow_id: flowId,
    in_iface: 'eth0',
    src_ip: r.pick(INSIDE),
    src_port: r.int(1024, 65535),
    dest_ip: r.pick(OUTSIDE),
  };
  switch (r.pick(['flow', 'dns', 'http', 'tls', 'stats'])) {
    case 'flow':
      return {
        ...base,
        event_type: 'flow',
        dest_port: 443,
        proto: 'TCP',
        app_proto: 'tls',
        flow: {
          pkts_toserver: r.int(1, 90),
          pkts_toclient: r.int(1, 90),
          bytes_toserver: r.int(60, 90_000),
          bytes_toclient: r.int(60, 900_000),
          start: timestamp(ms - 60_000),
          end: timestamp(ms),
          age: 60,
          state: 'closed',
          reason: 'timeout',
          alerted: false,
        },
      };
    case 'dns':
      return {
        ...base,
        event_type: 'dns',
        dest_port: 53,
        proto: 'UDP',
        dns: { type: 'query', id: r.int(1, 65535), rrname: r.pick(DOMAINS), rrtype: 'A', tx_id: 0 },
      };
    case 'http':
      return {
        ...base,
        event_type: 'http',
        dest_port: 80,
        proto: 'TCP',
        tx_id: 0,
        http: {
          hostname: r.pick(HOSTS),
          url: r.pick(URLS),
          http_user_agent: r.pick(AGENTS),
          http_method: 'GET',
          protocol: 'HTTP/1.1',
          status: 200,
          length: r.int(0, 90_000),
        },
      };
    case 'tls':
      return {
        ...base,
        event_type: 'tls',
        dest_port: 443,
        proto: 'TCP',
        tls: { sni: r.pick(DOMAINS), version: 'TLS 1.3' },
      };
    default:
      return {
        timestamp: timestamp(ms),
        event_type: 'stats',
        stats: {
          uptime: Math.floor(ms / 1000) % 864_000,
          decoder: { pkts: r.int(1e5, 1e7), bytes: r.int(1e7, 1e9) },
        },
      };
  }
}

/**
 * `count` eve.json events a second or so apart from `start` (ms since the epoch), a share
 * `alerts` of them (0…1) alerts and the rest flow, protocol and stats events.
 */
export function sampleEveEvents({
  count,
  seed = 1,
  alerts = 0.75,
  start = Date.UTC(2024, 2, 4, 13),
}) {
  const r = generator(seed);
  const events = [];
  let ms = start;
  let flowId = 1_049_812_000_000_000 + r.int(0, 1_000_000) * 1000;
  for (let i = 0; i < count; i++) {
    ms += r.int(1, 2500);
    flowId += r.int(1, 4096);
    events.push(
      r.next() < alerts
        ? alertEvent(r, r.skewed(SAMPLE_SIGNATURES), ms, flowId)
        : otherEvent(r, ms, flowId),
    );
  }
  return events;
}

/** `count` alert events only. */
export function sampleAlerts({ count, seed = 1, start }) {
  return sampleEveEvents({ count, seed, alerts: 1, ...(start === undefined ? {} : { start }) });
}

function ruleText(sig) {
  const home = sig.inbound ? ['$EXTERNAL_NET', '$HOME_NET'] : ['$HOME_NET', '$EXTERNAL_NET'];
  const port = sig.port === null ? 'any' : String(sig.port);
  return `alert ${sig.protocol} ${home[0]} any -> ${home[1]} ${port} (msg:"${sig.msg}"; flow:established,to_server; classtype:${sig.classtype}; sid:${sig.sid}; rev:${sig.rev}; metadata:created_at 2024_03_04;)`;
}

const SCANNED = [
  21, 23, 110, 143, 389, 502, 873, 1521, 2049, 2375, 3306, 5432, 5900, 5985, 6379, 7001, 8000, 8443,
  9000, 9200, 11211, 27017,
];

/**
 * Rule files naming the sample's signatures and more: `sample-events.rules` (every signature of
 * the events, then scans of many ports, some of them disabled, some without a classtype),
 * `dns-events.rules` and `smtp-events.rules`.
 */
export function sampleRuleFiles() {
  const sample = [
    '# Palisade sample rules: written for the tests, in the style of the usual rule sets.',
    '',
    ...SAMPLE_SIGNATURES.map(ruleText),
    '',
    '# Port scans',
    ...SCANNED.flatMap((port, i) => [
      `${i % 4 === 3 ? '# ' : ''}alert tcp $EXTERNAL_NET any -> $HOME_NET ${port} (msg:"ET SCAN Inbound probe of port ${port}"; flags:S; threshold:type both, track by_src, count 5, seconds 60; classtype:attempted-recon; sid:${2300000 + port}; rev:1;)`,
      `alert tcp $HOME_NET ${port} -> $EXTERNAL_NET any (msg:"ET INFO Service on port ${port} answered an outside host"; flow:established,from_server; sid:${2400000 + port}; rev:2;)`,
    ]),
    '',
  ].join('\n');
  const dns = [
    '# DNS decoder events',
    ...[
      'malformed request data',
      'malformed response data',
      'not a request',
      'not a response',
      'z flag set',
      'invalid additionals',
      'invalid authorities',
    ].map(
      (what, i) =>
        `alert dns any any -> any any (msg:"SURICATA DNS ${what}"; flow:${i % 2 ? 'to_client' : 'to_server'}; app-layer-event:dns.${what.replace(/ /g, '_')}; classtype:protocol-command-decode; sid:${2240001 + i}; rev:2;)`,
    ),
    '',
  ].join('\n');
  const smtp = [
    '# SMTP decoder events',
    ...[
      'invalid reply',
      'unable to match reply with request',
      'max command line len exceeded',
      'max reply line len exceeded',
      'invalid pipelined sequence',
      'bdat chunk len exceeded',
      'no server welcome message',
      'tls rejected',
      'data command rejected',
    ].map(
      (what, i) =>
        `alert smtp any any -> any any (msg:"SURICATA SMTP ${what}"; flow:established; app-layer-event:smtp.${what.replace(/ /g, '_')}; ${i % 3 === 2 ? '' : 'classtype:protocol-command-decode; '}sid:${2220000 + i}; rev:1;)`,
    ),
    '',
  ].join('\n');
  return [
    { name: 'sample-events.rules', text: sample },
    { name: 'dns-events.rules', text: dns },
    { name: 'smtp-events.rules', text: smtp },
  ];
}

import type { RuleSourceCatalogueEntry } from '@palisade/contract';

interface CatalogueTemplate extends Omit<RuleSourceCatalogueEntry, 'url' | 'checksum_url'> {
  /** `%(__version__)s` stands for the Suricata version, as in suricata-update's index. */
  url: string;
  /** Emerging Threats publishes `<archive>.md5` beside each archive. */
  checksum: boolean;
  /** The oldest Suricata version the source is written for. */
  minVersion?: string;
}

/**
 * The well-known sources: the free ones suricata-update's index lists (same ids, addresses and
 * licences), the Snort community rules, and ET Pro as the example of a source that needs a
 * secret code.
 */
const CATALOGUE: CatalogueTemplate[] = [
  {
    id: 'et/open',
    name: 'ET Open',
    vendor: 'Proofpoint',
    description: 'Emerging Threats Open Ruleset, updated daily',
    license: 'MIT',
    url: 'https://rules.emergingthreats.net/open/suricata-%(__version__)s/emerging.rules.tar.gz',
    checksum: true,
    requires_secret: false,
  },
  {
    id: 'et/pro',
    name: 'ET Pro',
    vendor: 'Proofpoint',
    description: 'Emerging Threats Pro Ruleset (commercial: needs the access code as secret code)',
    license: 'Commercial',
    url: 'https://rules.emergingthreatspro.com/%(secret-code)s/suricata-%(__version__)s/etpro.rules.tar.gz',
    checksum: false,
    requires_secret: true,
  },
  {
    id: 'snort/community',
    name: 'Snort community rules',
    vendor: 'Cisco Talos',
    description: 'Snort Subscriber Rule Set community edition',
    license: 'GPLv2',
    url: 'https://www.snort.org/downloads/community/community-rules.tar.gz',
    checksum: false,
    requires_secret: false,
  },
  {
    id: 'sslbl/ssl-fp-blacklist',
    name: 'Abuse.ch SSL Blacklist',
    vendor: 'Abuse.ch',
    description: 'Certificates of botnet command and control servers, by SHA1 fingerprint',
    license: 'Non-Commercial',
    url: 'https://sslbl.abuse.ch/blacklist/sslblacklist.rules',
    checksum: false,
    requires_secret: false,
  },
  {
    id: 'oisf/trafficid',
    name: 'OISF Traffic ID',
    vendor: 'OISF',
    description: 'Suricata Traffic ID ruleset',
    license: 'MIT',
    url: 'https://openinfosecfoundation.org/rules/trafficid/trafficid.rules',
    checksum: false,
    requires_secret: false,
    minVersion: '4.0.0',
  },
  {
    id: 'ptresearch/attackdetection',
    name: 'PT Attack Detection',
    vendor: 'Positive Technologies',
    description: 'Positive Technologies Attack Detection Team ruleset',
    license: 'Custom',
    url: 'https://raw.githubusercontent.com/ptresearch/AttackDetection/master/pt.rules.tar.gz',
    checksum: false,
    requires_secret: false,
  },
  {
    id: 'tgreen/hunting',
    name: 'Threat hunting rules',
    vendor: 'tgreen',
    description: 'Threat hunting rules (noisy by design: for hunting, not blocking)',
    license: 'GPLv3',
    url: 'https://raw.githubusercontent.com/travisbgreen/hunting-rules/master/hunting.rules',
    checksum: false,
    requires_secret: false,
    minVersion: '4.1.0',
  },
];

const versionParts = (version: string) => version.split('.').map((part) => Number(part));

function atLeast(version: string, minimum: string): boolean {
  const [a, b] = [versionParts(version), versionParts(minimum)];
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  return true;
}

/** The catalogue for one Suricata version, its addresses filled in. */
export function catalogueFor(suricataVersion: string): RuleSourceCatalogueEntry[] {
  return CATALOGUE.filter(
    (entry) => !entry.minVersion || atLeast(suricataVersion, entry.minVersion),
  ).map(({ checksum, minVersion: _minVersion, ...entry }) => {
    const url = entry.url.replaceAll('%(__version__)s', suricataVersion);
    return { ...entry, url, checksum_url: checksum ? `${url}.md5` : null };
  });
}

// The files a bundle becomes in the output folder. Pure: bundle in, file list out.

import type { AgentBundle } from '@palisade/contract';

/** One file of the output folder; `content: null` removes it (nothing of that kind is managed). */
export interface BundleFile {
  name: string;
  content: string | null;
}

export const BUNDLE_FILES = {
  rules: 'palisade.rules',
  thresholds: 'threshold.config',
  suricataVars: 'variables.yaml',
  snortVars: 'variables.conf',
  nftables: 'nftables.nft',
  routes: 'routes.sh',
  manifest: 'bundle.json',
} as const;

/** `HTTP_PORTS`, `SSH_PORTS`, `ORACLE_PORT` are port groups; every other variable is addresses. */
export function isPortVariable(name: string): boolean {
  return /_PORTS?$/i.test(name);
}

function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

/** A double-quoted YAML scalar (JSON string syntax is valid YAML). */
function yamlString(value: string): string {
  return JSON.stringify(value);
}

/** Suricata's `vars:` section, to `include:` from suricata.yaml. */
export function renderSuricataVariables(variables: Record<string, string>): string {
  const names = Object.keys(variables).sort();
  const section = (title: string, selected: string[]): string[] =>
    selected.length === 0
      ? [`  ${title}: {}`]
      : [`  ${title}:`, ...selected.map((n) => `    ${n}: ${yamlString(variables[n] ?? '')}`)];
  return [
    '%YAML 1.1',
    '---',
    '# Written by palisade-agent from the device profile. Do not edit: the next bundle replaces it.',
    'vars:',
    ...section(
      'address-groups',
      names.filter((n) => !isPortVariable(n)),
    ),
    ...section('port-groups', names.filter(isPortVariable)),
    '',
  ].join('\n');
}

/** Snort's `ipvar` / `portvar` lines, to `include` from snort.conf. */
export function renderSnortVariables(variables: Record<string, string>): string {
  const lines = Object.keys(variables)
    .sort()
    .map((name) => {
      const value = (variables[name] ?? '').replace(/\s+/g, ' ');
      return `${isPortVariable(name) ? 'portvar' : 'ipvar'} ${name} ${value}`;
    });
  return ['# Written by palisade-agent from the device profile.', ...lines, ''].join('\n');
}

export function renderBundle(bundle: AgentBundle): BundleFile[] {
  return [
    { name: BUNDLE_FILES.rules, content: withNewline(bundle.rules) },
    { name: BUNDLE_FILES.thresholds, content: withNewline(bundle.thresholds) },
    { name: BUNDLE_FILES.suricataVars, content: renderSuricataVariables(bundle.variables) },
    { name: BUNDLE_FILES.snortVars, content: renderSnortVariables(bundle.variables) },
    {
      name: BUNDLE_FILES.nftables,
      content: bundle.nftables === null ? null : withNewline(bundle.nftables),
    },
    {
      name: BUNDLE_FILES.routes,
      content: bundle.routes === null ? null : withNewline(bundle.routes),
    },
  ];
}

import { isIP } from 'node:net';
import { parseAddressSpec, parsePortSpec, type AddressSpec, type PortSpec } from '@palisade/rules';

/** Suricata's own variables, always defined on a sensor. */
const BUILT_IN = new Set(['HOME_NET', 'EXTERNAL_NET']);

/** `HTTP_PORTS`, `SSH_PORTS`, `ORACLE_PORTS`, `FTP_PORT`: port groups; everything else addresses. */
export const isPortVariable = (name: string) => /(_|^)PORTS?$/.test(name);

/**
 * Checks every value as a Snort/Suricata address or port list; a problem names the variable,
 * the entry and what is wrong. Variables may refer to each other (`!$HOME_NET`).
 */
export function variableProblems(
  variables: Record<string, string>,
): { field: string; msg: string }[] {
  const problems: { field: string; msg: string }[] = [];
  const defined = new Set([...Object.keys(variables), ...BUILT_IN]);
  for (const [name, value] of Object.entries(variables)) {
    const field = `variables.${name}`;
    if (isPortVariable(name)) {
      const result = parsePortSpec(value);
      if (!result.ok)
        problems.push({
          field,
          msg: `${name}: ${result.error.message} at "${value.slice(result.error.offset)}"`,
        });
      else
        for (const missing of portVariables(result.spec).filter((v) => !defined.has(v))) {
          problems.push({ field, msg: `${name}: unknown variable $${missing}` });
        }
      continue;
    }
    const result = parseAddressSpec(value);
    if (!result.ok) {
      problems.push({
        field,
        msg: `${name}: ${result.error.message} at "${value.slice(result.error.offset)}"`,
      });
      continue;
    }
    for (const entry of addresses(result.spec)) {
      if (entry.kind === 'variable' && !defined.has(entry.name)) {
        problems.push({ field, msg: `${name}: unknown variable $${entry.name}` });
      } else if (entry.kind === 'address' && !isAddress(entry.value)) {
        problems.push({
          field,
          msg: `${name}: "${entry.value}" is not an IP address or CIDR block`,
        });
      }
    }
  }
  return problems;
}

type Leaf = Extract<AddressSpec, { kind: 'variable' | 'address' }>;

function addresses(spec: AddressSpec): Leaf[] {
  switch (spec.kind) {
    case 'any':
      return [];
    case 'variable':
    case 'address':
      return [spec];
    case 'not':
      return addresses(spec.spec);
    case 'list':
      return spec.items.flatMap(addresses);
  }
}

function portVariables(spec: PortSpec): string[] {
  switch (spec.kind) {
    case 'variable':
      return [spec.name];
    case 'not':
      return portVariables(spec.spec);
    case 'list':
      return spec.items.flatMap(portVariables);
    case 'any':
    case 'port':
    case 'range':
      return [];
  }
}

function isAddress(value: string): boolean {
  const [ip = '', prefix, extra] = value.split('/');
  if (extra !== undefined) return false;
  const version = isIP(ip);
  if (version === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

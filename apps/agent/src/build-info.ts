// What this agent build is: its version and how it is shipped. The release bundles
// (scripts/release.mjs) bake both in with esbuild's `define`, since a bundle has no
// package.json beside it; run from source or from tsc's dist/, the version is the package's.

import { readFileSync } from 'node:fs';
import type { AgentFlavor } from '@palisade/contract';

declare const PALISADE_AGENT_VERSION: string | undefined;
declare const PALISADE_AGENT_FLAVOR: AgentFlavor | undefined;

function packageVersion(): string {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

export const agentVersion: string =
  typeof PALISADE_AGENT_VERSION === 'string' ? PALISADE_AGENT_VERSION : packageVersion();

/** null: run from the repository (source or tsc's dist/), not from a release file. */
export const agentFlavor: AgentFlavor | null =
  typeof PALISADE_AGENT_FLAVOR === 'string' ? PALISADE_AGENT_FLAVOR : null;

import type { AgentFlavor, AgentRelease } from '@palisade/contract';

export const RELEASE_DIR: string;
export const EXECUTABLE_NAME: string;
export const MODULE_NAME: string;

export function packageVersion(): Promise<string>;

/** One bundled file of the agent with `version` baked in (node-module: ESM, run with node). */
export function bundleAgent(options: {
  version: string;
  outfile: string;
  flavor?: AgentFlavor;
}): Promise<void>;

/** A release folder like dist-release/ (manifest.json last); returns its manifest. */
export function buildRelease(options?: {
  outDir?: string;
  version?: string;
  /** false: no single executable (the costly part), only the .mjs and the scripts. Default: on Linux. */
  executable?: boolean;
  protocol?: number;
}): Promise<AgentRelease>;

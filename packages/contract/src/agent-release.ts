import { z } from 'zod';

/**
 * What a release file is for: the single executable (no Node needed on the sensor), the one-file
 * bundle for sensors that have Node, or a helper shell script (install.sh, upgrade-guard.sh).
 */
export const AgentReleaseFileKind = z.enum(['executable', 'node-module', 'script']);
export type AgentReleaseFileKind = z.infer<typeof AgentReleaseFileKind>;

/** How an agent build is shipped: the release file kinds that are an agent. */
export const AgentFlavor = z.enum(['executable', 'node-module']);
export type AgentFlavor = z.infer<typeof AgentFlavor>;

/** A file name as it appears in a download URL: one path segment, no dot first. */
export const AGENT_RELEASE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const AgentReleaseFile = z.object({
  name: z.string().regex(AGENT_RELEASE_FILE_NAME),
  kind: AgentReleaseFileKind,
  /** executable: the operating system and CPU it runs on, as Node names them (`linux-x64`). */
  platform: z.string().optional(),
  /** node-module: the Node versions it runs on (a semver range). */
  node: z.string().optional(),
  size: z.number().int().min(0),
  /** Lower-case hex SHA-256 of the file's bytes. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type AgentReleaseFile = z.infer<typeof AgentReleaseFile>;

/** apps/agent/dist-release/manifest.json, written by the agent's build. */
export const AgentRelease = z.object({
  version: z.string().min(1),
  /** The agent protocol this build speaks (AGENT_PROTOCOL_VERSION when it was built). */
  protocol: z.number().int(),
  files: z.array(AgentReleaseFile),
});
export type AgentRelease = z.infer<typeof AgentRelease>;

/**
 * GET /agent/download/: the manifest the server carries, each file with the path it is
 * downloaded from (relative to the server's origin, so it holds behind any proxy).
 */
export const AgentReleaseListing = AgentRelease.extend({
  files: z.array(AgentReleaseFile.extend({ url: z.string() })),
});
export type AgentReleaseListing = z.infer<typeof AgentReleaseListing>;

import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { AgentRelease, type AgentReleaseFile, type AgentReleaseListing } from '@palisade/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, notFound } from '../../lib/app-error.js';

export const AGENT_DOWNLOAD_PATH = '/api/v1/agent/download/';
const MANIFEST = 'manifest.json';
const CHECKSUM_SUFFIX = '.sha256';

/** What GET /agent/download/{name} sends: a release file, or the checksum line of one. */
export type AgentDownload =
  | { kind: 'file'; file: AgentReleaseFile; handle: FileHandle }
  | { kind: 'checksum'; file: AgentReleaseFile; text: string };

const releaseMissing = () =>
  new AppError('agent_release_missing', 'This server carries no agent build: run npm run build');

/**
 * The agent build this server hands out (apps/agent/dist-release or AGENT_RELEASE_DIR).
 * The manifest is read on first use and again whenever its file changes, so a release built
 * while the server runs (or one missing at start) is picked up without a restart; files are
 * served only by the names the manifest lists, which the contract limits to one path segment.
 */
export function createAgentReleaseService(releaseDir: string, log: FastifyBaseLogger) {
  let cached: { stamp: string; release: AgentRelease | null } | undefined;

  async function current(): Promise<AgentRelease | null> {
    const manifestFile = path.join(releaseDir, MANIFEST);
    const info = await stat(manifestFile).catch(() => null);
    if (!info?.isFile()) return null;
    const stamp = `${info.mtimeMs}:${info.size}`;
    if (cached?.stamp === stamp) return cached.release;
    let release: AgentRelease | null = null;
    try {
      const parsed = AgentRelease.safeParse(JSON.parse(await readFile(manifestFile, 'utf8')));
      if (parsed.success) release = parsed.data;
      else log.error({ file: manifestFile, issues: parsed.error.issues }, 'bad agent manifest');
    } catch (error) {
      log.error({ err: error, file: manifestFile }, 'unreadable agent manifest');
    }
    cached = { stamp, release };
    return release;
  }

  /** The file as the manifest describes it; one removed or rewritten since is not served. */
  async function openListed(file: AgentReleaseFile): Promise<FileHandle> {
    const handle = await open(path.join(releaseDir, file.name)).catch(() => null);
    if (!handle) throw releaseMissing();
    if ((await handle.stat()).size !== file.size) {
      await handle.close();
      throw releaseMissing();
    }
    return handle;
  }

  async function required(): Promise<AgentRelease> {
    const release = await current();
    if (!release) throw releaseMissing();
    return release;
  }

  return {
    /** The release, or null when the server carries none; its version is the agents' target. */
    current,

    async listing(): Promise<AgentReleaseListing> {
      const release = await required();
      return {
        ...release,
        files: release.files.map((file) => ({
          ...file,
          url: `${AGENT_DOWNLOAD_PATH}${encodeURIComponent(file.name)}`,
        })),
      };
    },

    async download(name: string): Promise<AgentDownload> {
      const release = await required();
      const file = release.files.find((f) => f.name === name);
      if (file) return { kind: 'file', file, handle: await openListed(file) };
      const checked = name.endsWith(CHECKSUM_SUFFIX)
        ? release.files.find((f) => f.name === name.slice(0, -CHECKSUM_SUFFIX.length))
        : undefined;
      if (checked) {
        return { kind: 'checksum', file: checked, text: `${checked.sha256}  ${checked.name}\n` };
      }
      throw notFound('Agent release file');
    },
  };
}

export type AgentReleaseService = ReturnType<typeof createAgentReleaseService>;

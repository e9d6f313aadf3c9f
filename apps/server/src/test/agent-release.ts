import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentRelease, AgentReleaseFile } from '@palisade/contract';

/** The small stand-in release the server tests serve: its files' names and bytes. */
export const RELEASE_FILES: Record<string, { kind: AgentReleaseFile['kind']; bytes: Buffer }> = {
  'palisade-agent-linux-x64': {
    kind: 'executable',
    bytes: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0xff, 0x0a, 0x0d]),
  },
  'palisade-agent.mjs': { kind: 'node-module', bytes: Buffer.from('console.log("agent");\n') },
  'install.sh': { kind: 'script', bytes: Buffer.from('#!/bin/sh\necho install\n') },
  'upgrade-guard.sh': { kind: 'script', bytes: Buffer.from('#!/bin/sh\nexit 0\n') },
};

/** Writes a release folder as the agent's build lays it out (files, then manifest.json). */
export async function writeAgentRelease(dir: string, version = '0.2.0'): Promise<AgentRelease> {
  await mkdir(dir, { recursive: true });
  const files: AgentReleaseFile[] = [];
  for (const [name, { kind, bytes }] of Object.entries(RELEASE_FILES)) {
    await writeFile(path.join(dir, name), bytes);
    files.push({
      name,
      kind,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  }
  const manifest: AgentRelease = { version, protocol: 1, files };
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  return manifest;
}

// A small zip reader for the tests (stored and deflated members, via the central directory):
// enough for rule archives uploaded as .zip. Test code only.

import { inflateRawSync } from 'node:zlib';
import type { TarMember } from './tar.js';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;

/** Regular files of a zip archive, in directory order. */
export function readZip(archive: Buffer): TarMember[] {
  let end = archive.length - 22;
  while (end >= 0 && archive.readUInt32LE(end) !== END_OF_DIRECTORY) end--;
  if (end < 0) return [];
  const count = archive.readUInt16LE(end + 10);
  let pos = archive.readUInt32LE(end + 16);
  const members: TarMember[] = [];
  for (let i = 0; i < count && archive.readUInt32LE(pos) === DIRECTORY_ENTRY; i++) {
    const method = archive.readUInt16LE(pos + 10);
    const compressed = archive.readUInt32LE(pos + 20);
    const nameLength = archive.readUInt16LE(pos + 28);
    const extraLength = archive.readUInt16LE(pos + 30);
    const commentLength = archive.readUInt16LE(pos + 32);
    const local = archive.readUInt32LE(pos + 42);
    const name = archive.subarray(pos + 46, pos + 46 + nameLength).toString('utf8');
    pos += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    const dataStart =
      local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const raw = archive.subarray(dataStart, dataStart + compressed);
    if (method === 0) members.push({ name, data: Buffer.from(raw) });
    else if (method === 8) members.push({ name, data: inflateRawSync(raw) });
  }
  return members;
}

// A small tar reader for the tests (ustar, GNU long names, pax `path`): enough for rule
// archives such as Talos' and Emerging Threats' `.tar.gz`. Test code only.

import { gunzipSync } from 'node:zlib';

export interface TarMember {
  name: string;
  data: Buffer;
}

const BLOCK = 512;

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul < 0 ? length : nul).toString('utf8');
}

function paxPath(data: Buffer): string | null {
  // records: "<length> <key>=<value>\n"
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    if (space < 0) break;
    const length = Number(data.subarray(pos, space).toString('ascii'));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = data.subarray(space + 1, pos + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (record.slice(0, eq) === 'path') return record.slice(eq + 1);
    pos += length;
  }
  return null;
}

/** Regular files of a tar archive (gzip-compressed when `gzip` is true), in archive order. */
export function readTar(archive: Buffer, gzip = true): TarMember[] {
  const tar = gzip ? gunzipSync(archive) : archive;
  const members: TarMember[] = [];
  let pos = 0;
  let longName: string | null = null;
  while (pos + BLOCK <= tar.length) {
    const header = tar.subarray(pos, pos + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = field(header, 345, 155);
    const baseName = field(header, 0, 100);
    const data = tar.subarray(pos + BLOCK, pos + BLOCK + size);
    pos += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'L') {
      longName = field(data, 0, data.length);
      continue;
    }
    if (type === 'x') {
      longName = paxPath(data) ?? longName;
      continue;
    }
    const name = longName ?? (prefix ? `${prefix}/${baseName}` : baseName);
    longName = null;
    if (type === '0' || type === '\0') members.push({ name, data: Buffer.from(data) });
  }
  return members;
}

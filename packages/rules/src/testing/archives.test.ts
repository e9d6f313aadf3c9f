// The test-only archive readers, on archives built here byte by byte.

import { deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readTar } from './tar.js';
import { readZip } from './zip.js';

function tarHeader(name: string, size: number, type = '0'): Buffer {
  const header = Buffer.alloc(512);
  header.write(name.slice(0, 100), 0, 'utf8');
  header.write(size.toString(8).padStart(11, '0'), 124, 'ascii');
  header.write(type, 156, 'ascii');
  header.write('ustar', 257, 'ascii');
  return header;
}

function tar(files: Array<[string, string]>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, text] of files) {
    const data = Buffer.from(text);
    if (name.length > 100) {
      const long = Buffer.from(`${name}\0`);
      blocks.push(tarHeader('././@LongLink', long.length, 'L'), pad(long));
    }
    blocks.push(tarHeader(name, data.length), pad(data));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

function pad(data: Buffer): Buffer {
  return Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

function zip(files: Array<[string, string, 'stored' | 'deflated']>): Buffer {
  const locals: Buffer[] = [];
  const entries: Buffer[] = [];
  let offset = 0;
  for (const [name, text, method] of files) {
    const data = Buffer.from(text);
    const body = method === 'stored' ? data : deflateRawSync(data);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(method === 'stored' ? 0 : 8, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(method === 'stored' ? 0 : 8, 10);
    entry.writeUInt32LE(body.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, body);
    entries.push(entry, nameBytes);
    offset += local.length + nameBytes.length + body.length;
  }
  const directory = Buffer.concat(entries);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const RULE = 'alert ip any any -> any any (msg:"x"; sid:1;)\n';
const LONG = `rules/${'deep/'.repeat(25)}emerging-exploit.rules`;

describe('archive readers', () => {
  it('reads gzipped and plain tar, GNU long names included', () => {
    const archive = tar([
      ['rules/a.rules', RULE],
      [LONG, RULE.repeat(300)],
    ]);
    for (const [buffer, gzip] of [
      [gzipSync(archive), true],
      [archive, false],
    ] as const) {
      const members = readTar(buffer, gzip);
      expect(members.map((m) => m.name)).toEqual(['rules/a.rules', LONG]);
      expect(members[1]?.data.toString()).toBe(RULE.repeat(300));
    }
  });

  it('reads stored and deflated zip members', () => {
    const members = readZip(
      zip([
        ['rules/a.rules', RULE, 'stored'],
        ['rules/', '', 'stored'],
        ['rules/b.rules', RULE.repeat(100), 'deflated'],
      ]),
    );
    expect(members.map((m) => [m.name, m.data.toString()])).toEqual([
      ['rules/a.rules', RULE],
      ['rules/b.rules', RULE.repeat(100)],
    ]);
  });
});

// The shared corpus (PALISADE_CORPUS, by default ../shared/corpus beside the repository): rule
// files, tarball members and the reference parser's output. Test and bench code only.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CORPUS_ROOT, REPO_ROOT } from '../../../../testing/corpus.mjs';
import { readTar } from './tar.js';
import { readZip } from './zip.js';

export const repoRoot = REPO_ROOT;
export const corpusRoot = CORPUS_ROOT;

export interface CorpusFile {
  /** Relative to the corpus root; tarball members as `archive!member`. */
  name: string;
  text: string;
  /** Bytes read from disk for it (0 for an archive member). */
  bytes: number;
  /** False when the bytes are not valid UTF-8 (read with replacement characters). */
  utf8: boolean;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8(buffer: Buffer): boolean {
  try {
    strictUtf8.decode(buffer);
    return true;
  } catch {
    return false;
  }
}

function walk(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...walk(full));
    else found.push(full);
  }
  return found.sort();
}

/** Every `.rules` file under rules/, including the `.rules` members of tar/zip archives. */
export function loadCorpusRuleFiles(): CorpusFile[] {
  const files: CorpusFile[] = [];
  for (const full of walk(path.join(corpusRoot, 'rules'))) {
    const name = path.relative(corpusRoot, full).split(path.sep).join('/');
    if (full.endsWith('.rules')) {
      const buffer = readFileSync(full);
      files.push({
        name,
        text: buffer.toString('utf8'),
        bytes: buffer.length,
        utf8: isUtf8(buffer),
      });
    } else if (/\.(tar\.gz|tgz|tar|zip)$/.test(full)) {
      const buffer = readFileSync(full);
      const members = full.endsWith('.zip')
        ? readZip(buffer)
        : readTar(buffer, !full.endsWith('.tar'));
      for (const member of members) {
        if (!member.name.endsWith('.rules')) continue;
        files.push({
          name: `${name}!${member.name}`,
          text: member.data.toString('utf8'),
          bytes: 0,
          utf8: isUtf8(member.data),
        });
      }
    }
  }
  return files;
}

/** One record of the reference parser (suricata-update 1.2.7) output. */
export interface OracleRule {
  file: string;
  line: number;
  enabled: boolean;
  action: string;
  proto: string | null;
  source_addr: string | null;
  source_port: string | null;
  direction: string | null;
  dest_addr: string | null;
  dest_port: string | null;
  msg: string;
  sid: number;
  gid: number;
  rev: number;
  classtype: string | null;
  priority: string | number;
  metadata: string[];
  references: string[];
  flowbits: string[];
  header: string;
  raw: string;
}

export interface OracleError {
  file: string;
  line: number;
  error: string;
  text: string;
}

/**
 * The oracle names files as the reference was given them (`shared/corpus/rules/…`): the
 * corpus-relative name is the longest path suffix that is one of ours, else the path from its
 * first `rules/` segment on.
 */
function corpusName(file: string, known: ReadonlySet<string>): string {
  if (known.has(file)) return file;
  for (let i = file.indexOf('/'); i >= 0; i = file.indexOf('/', i + 1)) {
    const suffix = file.slice(i + 1);
    if (known.has(suffix)) return suffix;
  }
  const at = file.indexOf('/rules/');
  return at >= 0 ? file.slice(at + 1) : file;
}

function jsonLines<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);
}

export interface Oracle {
  /** `file:line` → record; file relative to the corpus root. */
  rules: Map<string, OracleRule>;
  errors: Map<string, OracleError>;
  /** Files the reference read. */
  files: Set<string>;
  /** file → its parsed records. */
  byFile: Map<string, OracleRule[]>;
}

/** The reference's records, named as `files` are (corpus-relative, `archive!member`). */
export function loadOracle(files: readonly CorpusFile[]): Oracle {
  const known = new Set(files.map((file) => file.name));
  const dir = path.join(corpusRoot, 'oracle');
  const oracle: Oracle = {
    rules: new Map(),
    errors: new Map(),
    files: new Set(),
    byFile: new Map(),
  };
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    if (entry.endsWith('.jsonl.gz')) {
      for (const record of jsonLines<OracleRule>(gunzipSync(readFileSync(full)).toString('utf8'))) {
        const file = corpusName(record.file, known);
        oracle.files.add(file);
        const rule = { ...record, file };
        oracle.rules.set(`${file}:${record.line}`, rule);
        const list = oracle.byFile.get(file) ?? [];
        list.push(rule);
        oracle.byFile.set(file, list);
      }
    } else if (entry.endsWith('.errors.jsonl')) {
      for (const record of jsonLines<OracleError>(readFileSync(full, 'utf8'))) {
        const file = corpusName(record.file, known);
        oracle.files.add(file);
        oracle.errors.set(`${file}:${record.line}`, { ...record, file });
      }
    }
  }
  return oracle;
}

import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { unzipSync } from 'fflate';
import { createTarDecoder } from 'modern-tar';
import { AppError } from '../../lib/app-error.js';
import {
  binaryContent,
  checkFileName,
  decodeText,
  type UploadBudget,
  uploadError,
} from '../../lib/uploads.js';

export interface RuleSourceFile {
  /**
   * What messages call the file: its full path inside its archive (`rules/emerging-dos.rules`,
   * `tests/a/test.rules`), or an uploaded file's name.
   */
  path: string;
  /**
   * Its name in the upload, which names its group and is stored as its rules' source: the path
   * without the leading folders that every rule file of its archive shares
   * (`emerging-dos.rules`; `a/test.rules` beside `b/test.rules`); an uploaded file's base name.
   */
  name: string;
  /** Reads the file's text from where the upload staged it. */
  read(): Promise<string>;
}

/** A rule member read from an archive, before the names of all its members are known. */
interface StagedMember {
  path: string;
  read: () => Promise<string>;
}

export interface UnpackedUpload {
  ruleFiles: RuleSourceFile[];
  /** classification.config, when the upload carried one. */
  classificationConfig: string | undefined;
  /** Where it was: its path inside the archive, or the uploaded file's name. */
  classificationPath?: string;
}

const baseName = (entry: string) => entry.split('/').filter(Boolean).pop() ?? entry;

/** A member's path as written in its archive, without `./` steps and repeated slashes. */
const memberPath = (entry: string) =>
  entry
    .split('/')
    .filter((step) => step !== '' && step !== '.')
    .join('/');

/**
 * The names of an archive's rule files in the upload: each path without the leading folders
 * that all of them share, so that ET Open's `rules/emerging-dos.rules` stays
 * `emerging-dos.rules` while `tests/a/test.rules` and `tests/b/test.rules` become `a/test.rules`
 * and `b/test.rules`.
 */
export function memberNames(paths: string[]): string[] {
  const folders = paths.map((member) => member.split('/').slice(0, -1));
  const first = folders[0] ?? [];
  let shared = first.length;
  for (const folder of folders) {
    shared = Math.min(shared, folder.length);
    const differs = folder.findIndex((step, index) => index < shared && step !== first[index]);
    if (differs >= 0) shared = differs;
  }
  return paths.map((member) => member.split('/').slice(shared).join('/'));
}
const isRules = (name: string) => name.toLowerCase().endsWith('.rules');

const STAGES_FOLDER = 'uploads';
const STAGE_PREFIX = 'import-';

/**
 * Where one import's rule files wait on disk (DATA_DIR/uploads/import-…) between the upload and
 * the transaction, so that memory holds one file at a time, not the whole upload.
 */
export class UploadStage {
  private constructor(readonly dir: string) {}

  static async open(dataDir: string): Promise<UploadStage> {
    const base = path.join(dataDir, STAGES_FOLDER);
    await mkdir(base, { recursive: true });
    return new UploadStage(await mkdtemp(path.join(base, STAGE_PREFIX)));
  }

  /**
   * Deletes the stages a crash left behind. Only those older than `olderThanMs`: a replica
   * sharing the data folder may be importing now, and no import takes that long.
   */
  static async removeStale(dataDir: string, olderThanMs: number): Promise<string[]> {
    const base = path.join(dataDir, STAGES_FOLDER);
    const entries = await readdir(base, { withFileTypes: true }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      },
    );
    const removed: string[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory() || !entry.name.startsWith(STAGE_PREFIX)) continue;
      const dir = path.join(base, entry.name);
      const { mtimeMs } = await stat(dir);
      if (Date.now() - mtimeMs < olderThanMs) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    }
    return removed;
  }

  /**
   * Writes `chunks` to a new staged file, refusing a NUL byte (naming `label` and the line);
   * answers how to read it back.
   */
  async write(
    label: string,
    chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  ): Promise<() => Promise<string>> {
    const file = path.join(this.dir, randomUUID());
    const handle = await open(file, 'w');
    let written = 0;
    try {
      for await (const chunk of chunks) {
        const nul = chunk.indexOf(0);
        if (nul >= 0) {
          // Only now are lines counted: the bytes before the NUL are on disk.
          await handle.write(chunk.subarray(0, nul));
          throw binaryContent(label, await lineOf(file, written + nul));
        }
        await handle.write(chunk);
        written += chunk.length;
      }
    } finally {
      await handle.close();
    }
    return () => readFile(file, 'utf8');
  }

  remove = () => rm(this.dir, { recursive: true, force: true });
}

/** The 1-based line of byte `offset` of a staged file. */
async function lineOf(file: string, offset: number): Promise<number> {
  let line = 1;
  for await (const chunk of createReadStream(file, { end: offset - 1 }) as AsyncIterable<Buffer>)
    line += newlines(chunk);
  return line;
}

function newlines(bytes: Uint8Array): number {
  let count = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) count += 1;
  return count;
}

/**
 * The bytes of `source`, each drawn from the request's budget in the name of `file` before it
 * is passed on. Pulled, never pushed: nothing is read (or inflated) ahead of its consumer.
 */
async function* metered(
  source: AsyncIterable<Buffer>,
  file: string,
  budget: UploadBudget,
): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    budget.take(chunk.length, file);
    yield chunk;
  }
}

/** `source` gunzipped; an error of either stream ends the output with it. */
function gunzipped(source: Readable): Readable {
  return pipeline(source, createGunzip({ chunkSize: 64 * 1024 }), () => {});
}

export interface UnpackOptions {
  budget: UploadBudget;
  stage: UploadStage;
}

/**
 * Unpacks one uploaded file as it streams in: a `.rules` file as is, or a
 * `.tar.gz`/`.tgz`/`.tar`/`.zip` archive (e.g. Emerging Threats' `rules/*.rules` +
 * `classification.config`); other members are skipped. Every unpacked byte is drawn from the
 * request's budget before it goes anywhere, so a bomb stops at the limit with a 413.
 */
export async function unpackUpload(
  fileName: string,
  source: Readable,
  { budget, stage }: UnpackOptions,
): Promise<UnpackedUpload> {
  checkFileName(fileName);
  const lower = fileName.toLowerCase();
  if (isRules(lower)) {
    const read = await stage.write(fileName, metered(source, fileName, budget));
    return {
      ruleFiles: [{ path: fileName, name: baseName(fileName), read }],
      classificationConfig: undefined,
    };
  }
  if (lower === 'classification.config' || lower.endsWith('/classification.config')) {
    const bytes = await collectBytes(metered(source, fileName, budget));
    return {
      ruleFiles: [],
      classificationConfig: decodeText(fileName, bytes),
      classificationPath: fileName,
    };
  }
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz'))
    return fromTar(fileName, metered(gunzipped(source), fileName, budget), stage);
  if (lower.endsWith('.tar')) return fromTar(fileName, metered(source, fileName, budget), stage);
  if (lower.endsWith('.zip')) {
    const zip = await collectBytes(metered(source, fileName, budget));
    return fromZip(fileName, zip, { budget, stage });
  }
  source.resume();
  throw new AppError(
    'validation_failed',
    `${fileName}: not a rules file or rule archive (expected .rules, .tar.gz, .tgz, .tar or .zip)`,
    [{ field: 'file', msg: `unsupported file type: ${fileName}` }],
  );
}

async function collectBytes(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The members a rule archive is read for; others are skipped (macOS resource forks too). */
function wantedMember(entry: string): 'rules' | 'classification' | null {
  const base = baseName(entry);
  if (base.startsWith('._')) return null;
  if (isRules(base)) return 'rules';
  return base === 'classification.config' ? 'classification' : null;
}

async function fromTar(archive: string, bytes: AsyncIterable<Buffer>, stage: UploadStage) {
  const members: StagedMember[] = [];
  let classification: { path: string; text: string } | undefined;
  let failure: unknown;
  const tar = Readable.from(bytes);
  tar.on('error', (error) => (failure ??= error));
  try {
    const entries = (Readable.toWeb(tar) as ReadableStream<Uint8Array>).pipeThrough(
      createTarDecoder(),
    );
    for await (const entry of entries) {
      const wanted = entry.header.type === 'file' ? wantedMember(entry.header.name) : null;
      const path = memberPath(entry.header.name);
      const member = `${archive}:${path}`;
      if (wanted === 'rules') {
        checkFileName(path);
        members.push({ path, read: await stage.write(member, entry.body) });
      } else if (wanted === 'classification') {
        const text = decodeText(member, await collectBytes(Readable.fromWeb(entry.body as never)));
        classification = { path, text };
      } else {
        await entry.body.cancel();
      }
    }
  } catch (error) {
    // The budget's 413 (or a stream's own error) is what stopped the tar reader.
    throw archiveError(archive, failure ?? error);
  }
  if (failure) throw archiveError(archive, failure);
  return collected(archive, members, classification);
}

/** A zip is read whole (its index is at its end), then inflated one wanted member at a time. */
async function fromZip(archive: string, zip: Uint8Array, { budget, stage }: UnpackOptions) {
  const staged: StagedMember[] = [];
  let classification: { path: string; text: string } | undefined;
  const members: { name: string; size: number }[] = [];
  try {
    unzipSync(zip, {
      filter: (file) => {
        if (wantedMember(file.name)) members.push({ name: file.name, size: file.originalSize });
        return false;
      },
    });
    for (const [index, { name, size }] of members.entries()) {
      // The declared size is what fflate allocates: draw it before inflating anything.
      budget.take(size, archive);
      let seen = -1;
      const data = Object.values(
        unzipSync(zip, { filter: (file) => wantedMember(file.name) !== null && ++seen === index }),
      )[0];
      if (!data) continue;
      const path = memberPath(name);
      const member = `${archive}:${path}`;
      if (wantedMember(name) === 'rules') {
        checkFileName(path);
        staged.push({ path, read: await stage.write(member, [data]) });
      } else {
        const text = decodeText(member, data);
        classification = { path, text };
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw corrupt(archive, error);
  }
  return collected(archive, staged, classification);
}

/** An archive's rule files named within the upload (`memberNames`), in the order of names. */
function collected(
  archive: string,
  members: StagedMember[],
  classification: { path: string; text: string } | undefined,
): UnpackedUpload {
  if (members.length === 0 && classification === undefined) {
    throw new AppError('validation_failed', `${archive}: the archive holds no .rules file`, [
      { field: 'file', msg: `${archive} holds no .rules file` },
    ]);
  }
  const names = memberNames(members.map((member) => member.path));
  const ruleFiles = members.map(({ path, read }, index) => ({
    path,
    name: names[index] ?? path,
    read,
  }));
  ruleFiles.sort((a, b) => a.name.localeCompare(b.name));
  return {
    ruleFiles,
    classificationConfig: classification?.text,
    classificationPath: classification?.path,
  };
}

/** A 413 or a cut-off request as it is; anything else means the archive itself is damaged. */
function archiveError(archive: string, error: unknown): unknown {
  const mapped = uploadError(error);
  return mapped instanceof AppError ? mapped : corrupt(archive, error);
}

const corrupt = (archive: string, error: unknown) =>
  new AppError(
    'validation_failed',
    `${archive}: damaged or unreadable archive (${(error as Error).message})`,
    [{ field: 'file', msg: `${archive} could not be unpacked` }],
  );

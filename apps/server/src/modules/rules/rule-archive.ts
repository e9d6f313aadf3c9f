import { gunzipSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import { unpackTar } from 'modern-tar';
import { SafeString, UNSTORABLE_TEXT } from '@palisade/contract';
import { AppError } from '../../lib/app-error.js';

/** Largest upload accepted, and the most its archives may unpack to (a zip bomb stops there). */
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;

export interface RuleSourceFile {
  /** Base name, e.g. `emerging-dos.rules`. */
  name: string;
  text: string;
}

export interface UnpackedUpload {
  ruleFiles: RuleSourceFile[];
  /** classification.config, when the upload carried one. */
  classificationConfig: string | undefined;
}

const baseName = (entry: string) => entry.split('/').filter(Boolean).pop() ?? entry;
const decoder = new TextDecoder('utf-8');

/**
 * Unpacks one uploaded file: a `.rules` file as is, or a `.tar.gz`/`.tgz`/`.tar`/`.zip` archive
 * (e.g. Emerging Threats' `rules/*.rules` + `classification.config`). Other members are ignored.
 */
export async function unpackUpload(
  fileName: string,
  bytes: Uint8Array,
  maxUnpackedBytes = MAX_UNPACKED_BYTES,
): Promise<UnpackedUpload> {
  if (!SafeString.safeParse(fileName).success)
    throw new AppError('validation_failed', `file: ${UNSTORABLE_TEXT}`, [
      { field: 'file', msg: UNSTORABLE_TEXT },
    ]);
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.rules')) {
    return {
      ruleFiles: [{ name: baseName(fileName), text: decodeText(fileName, bytes) }],
      classificationConfig: undefined,
    };
  }
  if (lower === 'classification.config' || lower.endsWith('/classification.config')) {
    return { ruleFiles: [], classificationConfig: decodeText(fileName, bytes) };
  }
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz'))
    return fromTar(fileName, gunzip(fileName, bytes, maxUnpackedBytes));
  if (lower.endsWith('.tar')) return fromTar(fileName, bytes);
  if (lower.endsWith('.zip')) return fromZip(fileName, bytes, maxUnpackedBytes);
  throw new AppError(
    'validation_failed',
    `${fileName}: not a rules file or rule archive (expected .rules, .tar.gz, .tgz, .tar or .zip)`,
    [{ field: 'file', msg: `unsupported file type: ${fileName}` }],
  );
}

function collect(entries: { name: string; data: Uint8Array }[], archive: string): UnpackedUpload {
  const ruleFiles: RuleSourceFile[] = [];
  let classificationConfig: string | undefined;
  for (const { name, data } of entries) {
    const base = baseName(name);
    if (base.startsWith('._')) continue; // macOS resource forks
    if (base.toLowerCase().endsWith('.rules'))
      ruleFiles.push({ name: base, text: decodeText(`${archive}:${name}`, data) });
    else if (base === 'classification.config')
      classificationConfig = decodeText(`${archive}:${name}`, data);
  }
  if (ruleFiles.length === 0 && classificationConfig === undefined) {
    throw new AppError('validation_failed', `${archive}: the archive holds no .rules file`, [
      { field: 'file', msg: `${archive} holds no .rules file` },
    ]);
  }
  ruleFiles.sort((a, b) => a.name.localeCompare(b.name));
  return { ruleFiles, classificationConfig };
}

async function fromTar(archive: string, tar: Uint8Array): Promise<UnpackedUpload> {
  let entries;
  try {
    entries = await unpackTar(tar);
  } catch (error) {
    throw corrupt(archive, error);
  }
  return collect(
    entries
      .filter((entry) => entry.header.type === 'file' && entry.data !== undefined)
      .map((entry) => ({ name: entry.header.name, data: entry.data ?? new Uint8Array() })),
    archive,
  );
}

function fromZip(archive: string, zip: Uint8Array, maxUnpackedBytes: number): UnpackedUpload {
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, {
      filter: (file) => {
        const wanted = file.name.endsWith('.rules') || file.name.endsWith('classification.config');
        if (wanted) total += file.originalSize;
        if (total > maxUnpackedBytes) throw tooLarge(archive, maxUnpackedBytes);
        return wanted;
      },
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw corrupt(archive, error);
  }
  return collect(
    Object.entries(files).map(([name, data]) => ({ name, data })),
    archive,
  );
}

/** gunzip (native zlib) with a ceiling on the unpacked size. */
function gunzip(archive: string, bytes: Uint8Array, maxUnpackedBytes: number): Uint8Array {
  try {
    return gunzipSync(bytes, { maxOutputLength: maxUnpackedBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw tooLarge(archive, maxUnpackedBytes);
    throw corrupt(archive, error);
  }
}

function decodeText(name: string, bytes: Uint8Array): string {
  if (bytes.includes(0)) {
    throw new AppError('validation_failed', `${name}: binary content, not a text rules file`, [
      { field: 'file', msg: `${name} is not text` },
    ]);
  }
  return decoder.decode(bytes);
}

const corrupt = (archive: string, error: unknown) =>
  new AppError(
    'validation_failed',
    `${archive}: damaged or unreadable archive (${(error as Error).message})`,
    [{ field: 'file', msg: `${archive} could not be unpacked` }],
  );

const tooLarge = (archive: string, maxUnpackedBytes: number) =>
  new AppError(
    'payload_too_large',
    `${archive}: unpacks to more than ${maxUnpackedBytes / 1024 / 1024} MiB`,
  );

import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

const MiB = 1024 * 1024;

/** `256 MiB`, or bytes when the limit is not a whole number of MiB. */
export const formatBytes = (bytes: number) =>
  bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${bytes} bytes`;

export const tooLarge = (file: string, limit: number, what = 'unpacks to more than') =>
  new AppError('payload_too_large', `${file}: the upload ${what} the ${formatBytes(limit)} limit`, [
    { field: 'file', msg: `${file} is over the ${formatBytes(limit)} limit` },
  ]);

/**
 * What one request may still take, in bytes: every byte an upload unpacks to (a plain file's
 * own bytes, an archive's decompressed stream) is drawn from it as it streams in, so a bomb is
 * stopped at the limit instead of after it has been inflated.
 */
export class UploadBudget {
  private used = 0;
  constructor(readonly limit: number) {}

  /** Draws `bytes` for `file`; a 413 naming the file and the limit once the budget is spent. */
  take(bytes: number, file: string): void {
    this.used += bytes;
    if (this.used > this.limit) throw tooLarge(file, this.limit);
  }
}

/**
 * A file name as the client sent it, or a 422 when it holds a control character or an unpaired
 * surrogate (either would reach the database as a group name and fail there).
 */
export function checkFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const bad = /[\u0000-\u001f\u007f]|\p{Cs}/u.exec(name);
  if (!bad) return name;
  const what =
    bad[0] === '\0'
      ? 'a NUL character'
      : /\p{Cs}/u.test(bad[0])
        ? 'an unpaired surrogate'
        : 'a control character';
  const shown = JSON.stringify(name).slice(1, -1);
  throw new AppError('validation_failed', `File name "${shown}" contains ${what}`, [
    { field: 'file', msg: `file name contains ${what}` },
  ]);
}

/**
 * The text of an uploaded text file, or a 422 naming the file and the line of the first NUL
 * (a binary file, which PostgreSQL could not store as text anyway).
 */
export function decodeText(name: string, bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw binaryContent(name, lineAt(bytes, nul));
  return new TextDecoder('utf-8').decode(bytes);
}

export const binaryContent = (name: string, line: number) =>
  new AppError(
    'validation_failed',
    `${name} line ${line}: a NUL byte: binary content, not a text file`,
    [{ field: `${name}:${line}`, msg: 'NUL byte: not a text file' }],
  );

/** 1-based line of the byte at `offset`. */
export function lineAt(bytes: Uint8Array, offset: number, firstLine = 1): number {
  let line = firstLine;
  for (let i = bytes.indexOf(10); i >= 0 && i < offset; i = bytes.indexOf(10, i + 1)) line += 1;
  return line;
}

// busboy's words (its errors carry no code) for a body that ends early or breaks its boundary.
const MALFORMED = /unexpected end of multipart|terminated early|Boundary not found|Malformed/i;

/**
 * The files of a multipart request, each checked for its name. Errors of the multipart layer
 * leave as what they are: a limit of the parser as 413, a truncated or malformed body as 400
 * (never a 500).
 */
export async function* multipartFiles(
  request: FastifyRequest,
  what: string,
): AsyncGenerator<MultipartFile> {
  if (!request.isMultipart())
    throw new AppError('bad_request', `Send ${what} as multipart/form-data`);
  const parts = request.files()[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<MultipartFile>;
    try {
      next = await parts.next();
    } catch (error) {
      throw uploadError(error);
    }
    if (next.done) return;
    checkFileName(next.value.filename);
    yield next.value;
  }
}

/**
 * Every file of a multipart upload, each read by `read` in the order sent; errors come out as
 * the client should see them, and an upload without a file is a 422 naming `file`.
 */
export async function readUploadedFiles<T>(
  request: FastifyRequest,
  what: string,
  read: (part: MultipartFile) => Promise<T>,
): Promise<T[]> {
  const files: T[] = [];
  try {
    for await (const part of multipartFiles(request, what)) files.push(await read(part));
  } catch (error) {
    throw uploadError(error);
  }
  if (files.length === 0)
    throw new AppError('validation_failed', 'No file in the upload', [
      { field: 'file', msg: 'Required' },
    ]);
  return files;
}

/** An error met while reading an upload, as the client should see it. */
export function uploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const { code, statusCode, message } = error as {
    code?: string;
    statusCode?: number;
    message?: string;
  };
  if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
    return new AppError('payload_too_large', `The upload is too large: ${message ?? code}`);
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) return error;
  const malformed = code === undefined && message !== undefined && MALFORMED.test(message);
  if (malformed || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
    return new AppError(
      'bad_request',
      `The upload is truncated or malformed multipart/form-data (${message ?? code})`,
    );
  }
  return error;
}

import { API_PREFIX, ApiError, REQUEST_TIMEOUT_MS } from './api-client';
import { logout, session } from './session';

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0–100, or null while the size is unknown. */
  percent: number | null;
}

export interface UploadOptions {
  /** Path under /api/v1, e.g. `rules/import?strict=false`. */
  path: string;
  files: File[];
  /** The multipart field every file goes under. */
  field?: string;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** How long the server may take to answer once the body is sent (default: the request timeout). */
  answerTimeoutMs?: number;
}

function readError(xhr: XMLHttpRequest): ApiError {
  let msg: string | undefined;
  let code: string | undefined;
  try {
    const body: unknown = JSON.parse(xhr.responseText);
    if (typeof body === 'object' && body !== null) {
      const record = body as Record<string, unknown>;
      if (typeof record.msg === 'string') msg = record.msg;
      if (typeof record.code === 'string') code = record.code;
    }
  } catch {
    // not JSON: status alone
  }
  return new ApiError(xhr.status, msg, code);
}

/**
 * A multipart upload with progress (fetch cannot report upload progress over HTTP/1.1).
 * Sending is not time-limited; once the body is sent the server has the usual request
 * timeout to answer, unless the caller allows more. A 401 or 403 logs the user out, as for every other call (spec §4).
 */
export function uploadFiles<T>({
  path,
  files,
  field = 'file',
  onProgress,
  signal,
  answerTimeoutMs = REQUEST_TIMEOUT_MS,
}: UploadOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const form = new FormData();
    for (const file of files) form.append(field, file, file.name);
    let answerTimer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      if (answerTimer !== undefined) clearTimeout(answerTimer);
      signal?.removeEventListener('abort', abort);
    };
    const abort = () => xhr.abort();

    xhr.open('POST', `${API_PREFIX}/${path}`);
    const { token } = session.get();
    if (token !== null) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      onProgress?.({
        loaded: event.loaded,
        total: event.total,
        percent: event.lengthComputable ? Math.round((event.loaded / event.total) * 100) : null,
      });
    };
    xhr.upload.onload = () => {
      answerTimer = setTimeout(() => xhr.abort(), answerTimeoutMs);
    };
    xhr.onload = () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as T);
        } catch {
          reject(new ApiError(xhr.status, undefined, 'bad_response'));
        }
        return;
      }
      if (xhr.status === 401 || xhr.status === 403) logout();
      reject(readError(xhr));
    };
    xhr.onerror = () => {
      done();
      reject(new ApiError(undefined, undefined, 'network'));
    };
    xhr.onabort = () => {
      done();
      reject(new ApiError(undefined, undefined, signal?.aborted === true ? 'aborted' : 'timeout'));
    };
    signal?.addEventListener('abort', abort);
    xhr.send(form);
  });
}

/** Saves a server file download (Bearer-authorised, so not a plain link). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The file name from a Content-Disposition header, else the fallback. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const match = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  return match?.[1] ?? fallback;
}

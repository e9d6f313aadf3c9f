import type { ErrorCode } from '@palisade/contract';
import { ApiError } from '../../lib/api-client';
import { apiErrorMessage } from '../../lib/errors';
import { notifications } from './queue';

export function notifySuccess(key: string): void {
  notifications.push({ content: key, color: 'success' });
}

export function notifyInfo(key: string): void {
  notifications.push({ content: key, color: 'info' });
}

export function notifyErrorKey(key: string): void {
  notifications.push({ content: key, color: 'error' });
}

export interface ApiErrorTexts {
  /** Translation key for any 409 (name taken, still in use). */
  conflict?: string;
  /** Translation keys by the server's error code; they win over `conflict` and the catalogue. */
  codes?: Partial<Record<ErrorCode, string>>;
  /** Interpolation values for those keys. */
  params?: Record<string, string | number>;
}

/**
 * The shared API error handler of spec §8. A screen may name its own text for a conflict
 * (409: name taken, still in use) or for specific error codes, which the spec's catalogue
 * would call an unknown error.
 */
export function notifyApiError(error: unknown, options: ApiErrorTexts = {}): void {
  const byCode =
    error instanceof ApiError && error.code !== undefined
      ? options.codes?.[error.code as ErrorCode]
      : undefined;
  if (byCode !== undefined) {
    notifications.push({ content: byCode, params: options.params, color: 'error' });
    return;
  }
  if (options.conflict !== undefined && error instanceof ApiError && error.status === 409) {
    notifyErrorKey(options.conflict);
    return;
  }
  const message = apiErrorMessage(error);
  if (message === null) return;
  if ('key' in message) notifyErrorKey(message.key);
  else notifications.push({ content: message.text, raw: true, color: 'error' });
}

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

/**
 * The shared API error handler of spec §8. A screen may name its own text for a conflict
 * (409: name taken, still in use), which the spec's catalogue would call an unknown error.
 */
export function notifyApiError(error: unknown, options: { conflict?: string } = {}): void {
  if (options.conflict !== undefined && error instanceof ApiError && error.status === 409) {
    notifyErrorKey(options.conflict);
    return;
  }
  const message = apiErrorMessage(error);
  if (message === null) return;
  if ('key' in message) notifyErrorKey(message.key);
  else notifications.push({ content: message.text, raw: true, color: 'error' });
}

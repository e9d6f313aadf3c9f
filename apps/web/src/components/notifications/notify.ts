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

/** The shared API error handler of spec §8. */
export function notifyApiError(error: unknown): void {
  const message = apiErrorMessage(error);
  if (message === null) return;
  if ('key' in message) notifyErrorKey(message.key);
  else notifications.push({ content: message.text, raw: true, color: 'error' });
}

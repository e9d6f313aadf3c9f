import { ApiError } from './api-client';

/** Translation keys of the spec §8 error catalogue. */
export type ErrorKey =
  | 'errors.network'
  | 'errors.incorrectLogin'
  | 'errors.tooManyLogins'
  | 'errors.userNotRegistered'
  | 'errors.userNotFound'
  | 'errors.server'
  | 'errors.incorrectUsername'
  | 'errors.cantReset'
  | 'errors.userAlreadyExist'
  | 'errors.unknownBackend';

/** A message to show: a translation key, or the server's own text (404/422). */
export type ErrorMessage = { key: ErrorKey } | { text: string };

const status = (error: unknown): number | undefined =>
  error instanceof ApiError ? error.status : undefined;

export function loginErrorKey(error: unknown): ErrorKey {
  const code = status(error);
  if (code === undefined) return 'errors.network';
  if (code === 429) return 'errors.tooManyLogins';
  if (code === 404) return 'errors.userNotRegistered';
  if (code === 500) return 'errors.server';
  return 'errors.incorrectLogin';
}

export function recoveryErrorKey(error: unknown): ErrorKey {
  const code = status(error);
  if (code === undefined) return 'errors.network';
  if (code === 429) return 'errors.tooManyLogins';
  if (code === 403) return 'errors.cantReset';
  if (code === 404) return 'errors.userNotFound';
  if (code === 500) return 'errors.server';
  return 'errors.incorrectUsername';
}

export function registerErrorKey(error: unknown): ErrorKey {
  const code = status(error);
  if (code === undefined) return 'errors.network';
  if (code === 400) return 'errors.userAlreadyExist';
  if (code === 429) return 'errors.tooManyLogins';
  if (code === 404) return 'errors.userNotFound';
  if (code === 500) return 'errors.server';
  return 'errors.incorrectLogin';
}

/**
 * The shared handler for every other call (spec §8). 401/403 already logged the user out
 * in the HTTP client, so they yield nothing to show.
 */
export function apiErrorMessage(error: unknown): ErrorMessage | null {
  const code = status(error);
  if (code === undefined) return { key: 'errors.network' };
  if (code === 401 || code === 403) return null;
  if (code === 404 || code === 422) {
    const msg = error instanceof ApiError ? error.serverMsg : undefined;
    return msg !== undefined && msg !== '' ? { text: msg } : { key: 'errors.unknownBackend' };
  }
  return { key: 'errors.unknownBackend' };
}

/** A message as the reader sees it: translated when it is a catalogue key, else the server's text. */
export function errorText(message: ErrorMessage, t: (key: ErrorKey) => string): string;
export function errorText(
  message: ErrorMessage | null,
  t: (key: ErrorKey) => string,
): string | null;
export function errorText(
  message: ErrorMessage | null,
  t: (key: ErrorKey) => string,
): string | null {
  if (message === null) return null;
  return 'key' in message ? t(message.key) : message.text;
}

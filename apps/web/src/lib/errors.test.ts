import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import {
  apiErrorMessage,
  errorText,
  loginErrorKey,
  recoveryErrorKey,
  registerErrorKey,
} from './errors';

const http = (status: number, msg?: string) => new ApiError(status, msg, undefined);
const noAnswer = new ApiError(undefined, undefined, 'network');

describe('spec §8 error catalogue', () => {
  it('login', () => {
    expect(loginErrorKey(noAnswer)).toBe('errors.network');
    expect(loginErrorKey(http(400))).toBe('errors.incorrectLogin');
    expect(loginErrorKey(http(401))).toBe('errors.incorrectLogin');
    expect(loginErrorKey(http(429))).toBe('errors.tooManyLogins');
    expect(loginErrorKey(http(404))).toBe('errors.userNotRegistered');
    expect(loginErrorKey(http(500))).toBe('errors.server');
  });

  it('password recovery and reset', () => {
    expect(recoveryErrorKey(http(400))).toBe('errors.incorrectUsername');
    expect(recoveryErrorKey(http(429))).toBe('errors.tooManyLogins');
    expect(recoveryErrorKey(http(403))).toBe('errors.cantReset');
    expect(recoveryErrorKey(http(404))).toBe('errors.userNotFound');
    expect(recoveryErrorKey(http(500))).toBe('errors.server');
    expect(recoveryErrorKey(noAnswer)).toBe('errors.network');
  });

  it('self-registration', () => {
    expect(registerErrorKey(http(400))).toBe('errors.userAlreadyExist');
    expect(registerErrorKey(http(429))).toBe('errors.tooManyLogins');
    expect(registerErrorKey(http(404))).toBe('errors.userNotFound');
    expect(registerErrorKey(http(500))).toBe('errors.server');
    expect(registerErrorKey(http(409))).toBe('errors.incorrectLogin');
  });

  it('generic: msg for 404/422, else Unknown backend error; 401/403 show nothing', () => {
    expect(apiErrorMessage(http(404, 'Device not found'))).toEqual({ text: 'Device not found' });
    expect(apiErrorMessage(http(422, 'filter: bad'))).toEqual({ text: 'filter: bad' });
    expect(apiErrorMessage(http(422))).toEqual({ key: 'errors.unknownBackend' });
    expect(apiErrorMessage(http(409, 'taken'))).toEqual({ key: 'errors.unknownBackend' });
    expect(apiErrorMessage(http(500))).toEqual({ key: 'errors.unknownBackend' });
    expect(apiErrorMessage(http(401))).toBeNull();
    expect(apiErrorMessage(http(403))).toBeNull();
  });
});

describe('errorText', () => {
  const t = (key: string) => `translated:${key}`;
  it('translates catalogue keys and shows server texts as they are', () => {
    expect(errorText({ key: 'errors.network' }, t)).toBe('translated:errors.network');
    expect(errorText({ text: 'HOME_NET: not an address' }, t)).toBe('HOME_NET: not an address');
    expect(errorText(null, t)).toBeNull();
  });
});

import ky, { HTTPError, TimeoutError } from 'ky';
import type { ErrorDetail } from '@palisade/contract';
import { logout, session } from './session';

/** Request timeout by build setting (spec §7, §9). */
export const REQUEST_TIMEOUT_MS = 15_000;
export const API_PREFIX = '/api/v1';

/** Every failed call is turned into one of these; `status` is absent when no response came. */
export class ApiError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly serverMsg: string | undefined,
    readonly code: string | undefined,
    /** Per-field problems of a 422 (`variables.HOME_NET`, `rules.1.destination_ports`). */
    readonly details: readonly ErrorDetail[] = [],
  ) {
    super(serverMsg ?? (status === undefined ? 'no response' : `HTTP ${status}`));
    this.name = 'ApiError';
  }
}

const isDetail = (value: unknown): value is ErrorDetail =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Record<string, unknown>).field === 'string' &&
  typeof (value as Record<string, unknown>).msg === 'string';

async function readBody(
  response: Response,
): Promise<{ msg?: string; code?: string; details?: ErrorDetail[] }> {
  try {
    const body: unknown = await response.clone().json();
    if (typeof body !== 'object' || body === null) return {};
    const record = body as Record<string, unknown>;
    return {
      msg: typeof record.msg === 'string' ? record.msg : undefined,
      code: typeof record.code === 'string' ? record.code : undefined,
      details: Array.isArray(record.details) ? record.details.filter(isDetail) : undefined,
    };
  } catch {
    return {};
  }
}

export async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPError) {
    const { msg, code, details } = await readBody(error.response);
    return new ApiError(error.response.status, msg, code, details);
  }
  if (error instanceof TimeoutError) return new ApiError(undefined, undefined, 'timeout');
  return new ApiError(undefined, undefined, 'network');
}

const NO_LOGOUT = ['login/access-token', 'users/open', 'password-recovery', 'reset-password'];

export const http = ky.create({
  prefixUrl: API_PREFIX,
  timeout: REQUEST_TIMEOUT_MS,
  retry: 0,
  hooks: {
    beforeRequest: [
      (request) => {
        const { token } = session.get();
        if (token !== null && !request.url.includes('/login/access-token')) {
          request.headers.set('Authorization', `Bearer ${token}`);
        }
      },
    ],
    afterResponse: [
      (request, _options, response) => {
        // Spec §4/§8: a 401 or 403 from any call logs the user out.
        const exempt = NO_LOGOUT.some((path) => request.url.includes(`${API_PREFIX}/${path}`));
        if ((response.status === 401 || response.status === 403) && !exempt) logout();
      },
    ],
  },
});

/** Runs a call and normalises its failure to ApiError. */
export async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw await toApiError(error);
  }
}

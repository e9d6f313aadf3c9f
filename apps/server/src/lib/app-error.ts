import type { ErrorCode, ErrorDetail } from '@palisade/contract';

export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  validation_failed: 422,
  rate_limited: 429,
  internal: 500,
  database_unavailable: 503,
  database_busy: 503,
  agent_release_missing: 404,
  enrolment_token_invalid: 401,
  lockout: 422,
  tune_no_policy: 409,
  tune_no_signature: 409,
  tune_no_source: 409,
  tune_rule_unknown: 404,
  tune_rule_already_disabled: 409,
  tune_source_already_suppressed: 409,
  tune_policy_restricted: 409,
};

/** The one error type services throw; the error handler turns it into {msg, code, details}. */
export class AppError extends Error {
  /** Sent as Retry-After (seconds) with a 429. */
  retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return STATUS_OF[this.code];
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const forbidden = (message = 'Not enough privileges') => new AppError('forbidden', message);
export const invalid = (field: string, msg: string) =>
  new AppError('validation_failed', `${field}: ${msg}`, [{ field, msg }]);

/** A 429 that says, in Retry-After, when the limit's window ends. */
export function rateLimited(
  retryAfterSeconds: number,
  message = 'Too many attempts, try again later',
) {
  const error = new AppError('rate_limited', message);
  error.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return error;
}

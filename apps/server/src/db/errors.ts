import { AppError } from '../lib/app-error.js';

/** True for PostgreSQL's unique_violation (23505), from pg and PGlite alike. */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505'
  );
}

/** Runs a write; a unique violation becomes a 409 with the given message. */
export async function orConflict<T>(write: () => Promise<T>, message: string): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', message);
    throw error;
  }
}

/** What a caller hears when the database cannot be reached; the same call may be retried. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database connection was lost; try again.';

/** What a caller hears when the database gave up on its call for a concurrent one. */
export const DATABASE_BUSY_MESSAGE = 'The database was busy with a conflicting change; try again.';

/**
 * SQLSTATEs of a transaction the database ended for a concurrent one, which the same call run
 * again normally passes: deadlock_detected (40P01), serialization_failure (40001) and
 * lock_not_available (55P03, a lock_timeout). Its transaction was rolled back whole.
 */
const CONFLICT_STATES = new Set(['40P01', '40001', '55P03']);

/** True when the database ended the caller's transaction for a concurrent one. */
export function isTransientConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof error === 'object' && typeof code === 'string' && CONFLICT_STATES.has(code);
}

/** The database went away under a statement, or no connection could be had: a 503. */
export class DatabaseUnavailableError extends AppError {
  constructor(cause: unknown) {
    super('database_unavailable', DATABASE_UNAVAILABLE_MESSAGE);
    this.name = 'DatabaseUnavailableError';
    this.cause = cause;
  }
}

/**
 * SQLSTATEs of a lost or refused connection: class 08 (connection exception), the server
 * shutting down or terminating the backend (57P01 admin_shutdown, 57P02 crash_shutdown,
 * 57P03 cannot_connect_now), and too many connections (53300).
 */
const LOST_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket errors of a connection that broke or could not be opened. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** What node-postgres says when the socket closed under a client, or a client was unusable. */
const LOST_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
];

/**
 * True when an error (or its cause) means the database connection was lost or could not be
 * had, rather than that the statement was wrong: a server replaced, restarted, or a backend
 * terminated (pg_terminate_backend).
 */
export function isConnectionLoss(error: unknown): boolean {
  for (let at = error, depth = 0; at !== undefined && at !== null && depth < 5; depth += 1) {
    if (at instanceof DatabaseUnavailableError) return true;
    if (typeof at !== 'object') return false;
    const { code, message, cause } = at as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string') {
      if (code.startsWith('08') || LOST_STATES.has(code) || SOCKET_ERRORS.has(code)) return true;
    }
    if (typeof message === 'string' && LOST_MESSAGES.some((lost) => message.startsWith(lost))) {
      return true;
    }
    at = cause;
  }
  return false;
}

/** The error a caller should see: a lost connection becomes DatabaseUnavailableError. */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError) return error;
  return isConnectionLoss(error) ? new DatabaseUnavailableError(error) : error;
}

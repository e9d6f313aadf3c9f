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

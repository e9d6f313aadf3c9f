// The internal shape of a parse failure: where (offset in the logical text), what, and why.
// Public functions turn it into a Diagnostic with file, line and column.

import type { DiagnosticCode } from './types.js';

export interface Failure {
  failed: true;
  offset: number;
  code: DiagnosticCode;
  message: string;
}

export function fail(offset: number, code: DiagnosticCode, message: string): Failure {
  return { failed: true, offset, code, message };
}

export function isFailure(value: unknown): value is Failure {
  return typeof value === 'object' && value !== null && 'failed' in value;
}

import type { ErrorCode } from '@palisade/contract';

/**
 * PostgreSQL errors caused by what a request carried, not by the server: the error handler's
 * safety net answers them 4xx (and logs a warning, since each one means a validation is missing
 * at the edge) instead of a 500.
 */
interface InputError {
  status: number;
  code: ErrorCode;
  msg: string;
}

const BY_SQLSTATE: Record<string, InputError> = {
  // untranslatable_character: \u0000 or an unpaired surrogate in text or jsonb
  '22P05': invalid(
    'Text contains a character that cannot be stored (NUL or an unpaired surrogate)',
  ),
  // character_not_in_repertoire: a NUL byte or bytes that are not UTF-8
  '22021': invalid('Text contains a NUL character or bytes that are not UTF-8'),
  // numeric_value_out_of_range: e.g. 2^31 into an integer column
  '22003': invalid('A number is out of range'),
  // invalid_text_representation: e.g. 'abc' cast to integer
  '22P02': invalid('A value is not valid for its field'),
  // invalid_regular_expression
  '2201B': invalid('Not a valid regular expression'),
  '22001': invalid('A text is too long'),
  '22007': invalid('Not a valid date or time'),
  '22008': invalid('A date or time is out of range'),
  '23503': {
    status: 409,
    code: 'conflict',
    msg: 'The object is in use, or refers to one that does not exist',
  },
  '23505': { status: 409, code: 'conflict', msg: 'Already exists' },
  '23514': invalid('A value is not allowed'),
  // program_limit_exceeded, statement_too_complex: e.g. a regular expression too large to compile
  '54000': { status: 400, code: 'bad_request', msg: 'The request is too large or too complex' },
  '54001': { status: 400, code: 'bad_request', msg: 'The request is too large or too complex' },
};

function invalid(msg: string): InputError {
  return { status: 422, code: 'validation_failed', msg };
}

/** The 4xx for a PostgreSQL error that input caused (pg and PGlite alike), else undefined. */
export function databaseInputError(error: unknown): InputError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const sqlstate = (error as { code?: unknown }).code;
  if (typeof sqlstate !== 'string' || !/^[0-9A-Z]{5}$/.test(sqlstate)) return undefined;
  const known = BY_SQLSTATE[sqlstate];
  if (known) return known;
  // Class 22, data exception: a value the database cannot take.
  if (sqlstate.startsWith('22')) return invalid('A value is not valid for its field');
  return undefined;
}

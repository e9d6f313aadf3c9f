import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import {
  ErrorResponse as ErrorResponseSchema,
  type ErrorCode,
  type ErrorDetail,
  type ErrorResponse,
} from '@palisade/contract';
import {
  DATABASE_BUSY_MESSAGE,
  DATABASE_UNAVAILABLE_MESSAGE,
  isConnectionLoss,
  isTransientConflict,
} from '../db/errors.js';
import { AppError, STATUS_OF } from '../lib/app-error.js';
import { databaseInputError } from './database-input-errors.js';

/** What a 503 for a lost or busy database asks the caller to wait before trying again. */
const RETRY_AFTER_SECONDS = 1;

const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'bad_request',
  415: 'bad_request',
  422: 'validation_failed',
  429: 'rate_limited',
};

/** Every error leaves as {msg, code, details?}; the console's catalogue reads msg and status. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A lost database connection is the database's state, not this request's fault; a
    // deadlock or a serialization failure rolled the call back whole. Either is a 503 the
    // caller may retry, never a 500 (nor a crash).
    const retryable = isConnectionLoss(error)
      ? { code: 'database_unavailable' as const, msg: DATABASE_UNAVAILABLE_MESSAGE }
      : isTransientConflict(error)
        ? { code: 'database_busy' as const, msg: DATABASE_BUSY_MESSAGE }
        : undefined;
    if (retryable) {
      request.log.warn({ err: error }, `database: ${retryable.code}`);
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send(body(retryable.code, retryable.msg));
    }
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) {
        reply.header('retry-after', String(error.retryAfterSeconds));
      }
      return reply.status(error.status).send(body(error.code, error.message, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details: ErrorDetail[] = error.validation.map((issue) => ({
        field: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)]
          .filter(Boolean)
          .join('.'),
        msg: issue.message ?? 'invalid',
      }));
      const first = details[0];
      const msg = first ? `${first.field}: ${first.msg}` : 'Invalid request';
      return reply.status(422).send(body('validation_failed', msg, details));
    }
    if (isResponseSerializationError(error)) {
      request.log.error(
        { err: error, issues: error.cause.issues },
        'response does not match its schema',
      );
      return reply.status(500).send(body('internal', 'Internal server error'));
    }
    const status = error.statusCode ?? 500;
    const code = CODE_OF_STATUS[status];
    if (status < 500 && code) {
      const msg = status === 413 ? 'Request body is too large' : error.message;
      return reply.status(status).send(body(code, msg));
    }
    // Safety net: what the database refused because of the input is the caller's error.
    const refused = databaseInputError(error);
    if (refused) {
      request.log.warn({ err: error }, 'the database refused an input: validate it at the edge');
      return reply.status(refused.status).send(body(refused.code, refused.msg));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body('internal', 'Internal server error'));
  });

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isPage =
      request.method === 'GET' && !pathname.startsWith('/api/') && !pathname.startsWith('/assets/');
    // History mode: any other path is a console route, so the console answers it.
    if (isPage && app.sendConsole) return app.sendConsole(reply);
    return reply.status(404).send(body('not_found', `No route ${request.method} ${pathname}`));
  });
});

/**
 * Fastify's `frameworkErrors`: a URL that does not decode (`%FF`) or a path parameter past the
 * router's length limit is answered in the shared error shape too.
 */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode ?? 400;
  if (status >= 500) {
    void reply.status(status).send(body('internal', 'Internal server error'));
    return;
  }
  void reply
    .status(status)
    .send(body(CODE_OF_STATUS[status] ?? 'bad_request', `Not a valid URL: ${error.message}`));
}

function body(code: ErrorCode, msg: string, details?: ErrorDetail[]): ErrorResponse {
  return details && details.length > 0 ? { msg, code, details } : { msg, code };
}

export { STATUS_OF };

/** A route's error responses for its schema (OpenAPI): every one has the shared error shape. */
export function errorResponses<Status extends number>(
  ...statuses: Status[]
): Record<Status, typeof ErrorResponseSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorResponseSchema])) as Record<
    Status,
    typeof ErrorResponseSchema
  >;
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets for `options`, computed once. They are the same on every answer;
 * @fastify/helmet builds them again for each request, which was about a tenth of the server's
 * CPU under a fleet's heartbeats. Options whose directives are functions of the request (CSP
 * nonces) cannot be computed ahead and are refused.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  let failure: unknown;
  helmet(options)(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    (error?: unknown) => {
      failure = error;
      finished = true;
    },
  );
  if (failure !== undefined) throw new Error('helmet refused its options', { cause: failure });
  if (!finished) throw new Error('helmet options that depend on the request are not supported');
  return headers;
}

/** Sets helmet's headers (see securityHeaders) on every answer. */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: HelmetOptions) => {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
});

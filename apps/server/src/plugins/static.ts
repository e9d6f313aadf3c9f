import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.js';

/** What an operator may put in `DATA_DIR/public/assets` to restyle the console. */
const OPERATOR_FILES = ['theme.json', 'custom.css'];

export interface StaticOptions {
  /** The built console (apps/web/dist). */
  webDist: string;
  /** Operator files served first, e.g. assets/theme.json and assets/custom.css. */
  overrides: string;
  /** Serve the build's `*.map` files (SERVE_SOURCEMAPS); otherwise they answer 404. */
  serveSourceMaps: boolean;
}

/**
 * Serves the console on the API's origin. Unknown paths outside /api and /assets get
 * index.html so the console's history-mode router can take them.
 */
export const staticPlugin = fp(async (app: FastifyInstance, options: StaticOptions) => {
  // Created up front so an operator sees where theme.json and custom.css go.
  await mkdir(path.join(options.overrides, 'assets'), { recursive: true });
  const roots = [options.overrides, options.webDist].filter((root) => existsSync(root));
  const indexHtml = path.join(options.webDist, 'index.html');
  if (!existsSync(indexHtml)) {
    app.log.warn(`console not built (${indexHtml} missing): run npm run build`);
  }
  if (roots.length === 0) return;
  const hasConsole = existsSync(indexHtml);

  // Source maps show the console's source: only an operator who asks serves them. Answered
  // here, as the console's own paths are, so that a map is not answered with index.html.
  if (!options.serveSourceMaps) {
    app.addHook('onRequest', async (request) => {
      const pathname = request.url.split('?')[0] ?? '/';
      if (pathname.endsWith('.map') && !pathname.startsWith('/api/')) {
        throw new AppError('not_found', `No route ${request.method} ${pathname}`);
      }
    });
  }

  await app.register(fastifyStatic, {
    root: roots,
    prefix: '/',
    wildcard: true,
    index: false,
    cacheControl: false,
    // The build writes name.br and name.gz beside each asset; the best one the client accepts
    // is sent as it is, with no compression per request.
    preCompressed: true,
    setHeaders(res, filePath) {
      // The same URL answers differently by Accept-Encoding: caches must keep them apart.
      res.setHeader('vary', 'accept-encoding');
      // Hashed bundles never change; anything else is revalidated.
      const immutable = filePath.startsWith(path.join(options.webDist, 'assets'));
      res.setHeader(
        'cache-control',
        immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });

  // The console asks for both on every load. Without the operator's own file the answer is 204
  // (nothing to apply), not a 404 that every browser reports as an error in its console.
  const operatorAssets = path.join(options.overrides, 'assets');
  for (const name of OPERATOR_FILES) {
    app.get(`/assets/${name}`, { schema: { hide: true } }, (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      if (!existsSync(path.join(operatorAssets, name))) return reply.code(204).send();
      return reply.sendFile(name, operatorAssets);
    });
  }

  if (!hasConsole) return;
  app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  app.decorate('sendConsole', sendIndex);

  function sendIndex(reply: FastifyReply) {
    return reply.header('cache-control', 'no-cache').sendFile('index.html', options.webDist);
  }
});

declare module 'fastify' {
  interface FastifyInstance {
    sendConsole?: (reply: FastifyReply) => FastifyReply;
  }
}

import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Smaller answers are sent as they are: compressing them saves less than a packet. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/**
 * Brotli quality for answers compressed per request. 4 compresses a 5,000-rule page (1.8 MB)
 * to about what gzip's default does, in less time; 11 (zlib's default) takes seconds.
 * Built assets are compressed once at build time, at the highest quality.
 */
export const DYNAMIC_BROTLI_QUALITY = 4;

/**
 * Compresses answers (brotli or gzip, as the client's Accept-Encoding prefers) and sets
 * `Vary: accept-encoding`. Server-sent-event streams are written on the raw response (hijacked)
 * and `text/event-stream` is not a compressible type here, so they are never buffered.
 * Assets that already carry a Content-Encoding (precompressed files) are left as they are.
 */
export const compressionPlugin = fp(async (app: FastifyInstance) => {
  await app.register(fastifyCompress, {
    global: true,
    // Request bodies are not decompressed: no client of this API sends them compressed.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    brotliOptions: {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    },
  });
});

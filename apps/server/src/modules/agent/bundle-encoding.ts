import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { COMPRESS_THRESHOLD_BYTES, DYNAMIC_BROTLI_QUALITY } from '../../plugins/compression.js';

/** How a bundle answer is encoded: as the agent's Accept-Encoding allows, brotli first. */
export type BundleEncoding = 'br' | 'gzip' | 'identity';

/** A bundle answer's bytes as they go on the wire. */
export interface EncodedBundle {
  body: Buffer;
  encoding: BundleEncoding;
}

/** Compressions done so far in this process: the tests count them. */
export const encodingStats = { compressed: 0 };

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The encoding of a bundle answer for an Accept-Encoding header: brotli, else gzip, else none
 * (a coding listed with `q=0` is refused; `*` stands for any). The same preference as the
 * compression plugin's for every other answer.
 */
export function negotiateEncoding(accept: string | undefined): BundleEncoding {
  if (!accept) return 'identity';
  const accepted = new Set<string>();
  for (const item of accept.split(',')) {
    const [name = '', ...params] = item.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br') || accepted.has('*')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

/**
 * Encodes a bundle's JSON off the main thread (zlib's thread pool), with the compression
 * plugin's settings; an answer under its threshold is sent as it is.
 */
export async function encodeBundle(json: string, wanted: BundleEncoding): Promise<EncodedBundle> {
  const raw = Buffer.from(json, 'utf8');
  if (wanted === 'identity' || raw.length < COMPRESS_THRESHOLD_BYTES) {
    return { body: raw, encoding: 'identity' };
  }
  encodingStats.compressed += 1;
  if (wanted === 'gzip') return { body: await gzip(raw), encoding: 'gzip' };
  const body = await brotli(raw, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
  return { body, encoding: 'br' };
}

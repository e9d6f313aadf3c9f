import { readFileSync } from 'node:fs';

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as {
  version: string;
};

/** This server's release (apps/server/package.json); console and agent ship with it. */
export const SERVER_VERSION = manifest.version;

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/** ../shared/corpus beside the checkout: real rule sets, read by tests only. */
export const CORPUS = path.resolve(
  fileURLToPath(new URL('../../../../', import.meta.url)),
  '../shared/corpus',
);

export const corpusFile = (relative: string) => readFileSync(path.join(CORPUS, relative));

export const corpusDir = (relative: string) =>
  readdirSync(path.join(CORPUS, relative))
    .sort()
    .map((name) => ({ name, bytes: corpusFile(path.join(relative, name)) }));

export interface OracleRule {
  file: string;
  gid: number;
  sid: number;
  rev: number;
  enabled: boolean;
  action: string;
  msg: string;
}

/** What the reference parser (suricata-update) read from a corpus set. */
export function oracle(set: string): OracleRule[] {
  return gunzipSync(corpusFile(`oracle/${set}.jsonl.gz`))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as OracleRule);
}

/** A multipart/form-data body with the given files under the field `file`. */
export async function multipart(files: { name: string; bytes: Uint8Array | string }[]) {
  const form = new FormData();
  for (const file of files) form.append('file', new Blob([file.bytes]), file.name);
  const request = new Request('http://upload.test/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

/** The alert events of a corpus eve.json file, as Suricata wrote them (bad lines skipped). */
export function eveAlerts(file: string): Record<string, unknown>[] {
  return corpusFile(`eve/${file}`)
    .toString('utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        const event = JSON.parse(line) as Record<string, unknown>;
        return event['event_type'] === 'alert' ? [event] : [];
      } catch {
        return [];
      }
    });
}

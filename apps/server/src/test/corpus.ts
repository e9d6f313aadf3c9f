import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { CORPUS_ROOT, corpusPresent } from '../../../../testing/corpus.mjs';
import { sampleAlerts, sampleRuleFiles } from '../../../../testing/samples.mjs';
import { api } from './harness.js';

export { NEEDS_CORPUS, corpusForTests } from '../../../../testing/corpus.mjs';

/**
 * The shared corpus (PALISADE_CORPUS, by default ../shared/corpus beside the checkout): real
 * rule sets, read by tests only. Tests that need it ask `corpusForTests` first.
 */
export const CORPUS = CORPUS_ROOT;

export const corpusFile = (relative: string) => readFileSync(path.join(CORPUS, relative));

export const corpusDir = (relative: string) =>
  readdirSync(path.join(CORPUS, relative))
    .sort()
    .map((name) => ({ name, bytes: corpusFile(path.join(relative, name)) }));

export interface OracleRule {
  file: string;
  /** The rule's first physical line in its file. */
  line: number;
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

/**
 * Rule files to fill lists with: Suricata's own rule files from the corpus, or without it the
 * project's sample rule files (which hold dns-events.rules and smtp-events.rules too).
 */
export function sampleRulesFiles(): { name: string; bytes: Uint8Array | string }[] {
  if (!corpusPresent('rules/suricata')) {
    return sampleRuleFiles().map((file) => ({ name: file.name, bytes: file.text }));
  }
  return corpusDir('rules/suricata').filter((file) => file.name.endsWith('.rules'));
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

/**
 * POSTs `files` to `url` as `headers` (their authorization) in a multipart body built by
 * `multipart`; the response. For tests whose body is no stranger than that.
 */
export async function postFiles(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string>,
  files: { name: string; bytes: Uint8Array | string }[],
): Promise<LightMyRequestResponse> {
  const body = await multipart(files);
  return api(app, {
    method: 'POST',
    url,
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

/**
 * The alert events of a corpus eve.json file, as Suricata wrote them (bad lines skipped). Without
 * the corpus, 600 generated alerts of the project's sample: for tests that need realistic events,
 * not these ones.
 */
export function eveAlerts(file: string): Record<string, unknown>[] {
  if (!corpusPresent(`eve/${file}`)) return sampleAlerts({ count: 600, seed: 11 });
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

// Helpers of the API and agent end-to-end tests (e2e/api, e2e/agent): answers read as the
// contract's types, unique names and rule ids, and a rules file imported as an upload.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import type { ErrorResponse, ListResponse, RuleGroup } from '@palisade/contract';

/** The body of a 2xx answer as `T`; anything else throws with the status and body. */
export async function ok<T>(response: APIResponse | Promise<APIResponse>): Promise<T> {
  const answer = await response;
  const text = await answer.text();
  if (!answer.ok()) throw new Error(`${answer.url()}: ${answer.status()} ${text}`);
  return (text === '' ? null : JSON.parse(text)) as T;
}

/** The shared error body (`{msg, code, details?}`) of a refused request. */
export async function refusal(response: APIResponse): Promise<ErrorResponse> {
  return (await response.json()) as ErrorResponse;
}

/** `prefix` and a suffix no other test (in any worker) makes. */
export const uniqueName = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

/**
 * `count` consecutive signature ids from a random base, so that tests running at the same time
 * on one organization (where a rule is unique by gid and sid) never share a rule.
 */
export function uniqueSids(count: number): number[] {
  const base = 900_000_000 + (randomBytes(4).readUInt32BE() % 1_000_000_000);
  return Array.from({ length: count }, (_, index) => base + index);
}

/** A rules file's text: one `alert` rule per sid, the message naming it. */
export const rulesText = (sids: number[]) =>
  sids
    .map(
      (sid) =>
        `alert tcp any any -> any ${1 + (sid % 60_000)} (msg:"E2E rule ${sid}"; sid:${sid}; rev:1;)\n`,
    )
    .join('');

/** `rules/import` of one file (multipart, as the console uploads it); `strict` refuses any bad line. */
export function importRules(
  api: APIRequestContext,
  file: { name: string; text: string },
  { strict = false }: { strict?: boolean } = {},
): Promise<APIResponse> {
  return api.post(`rules/import${strict ? '?strict=true' : ''}`, {
    multipart: {
      file: { name: file.name, mimeType: 'text/plain', buffer: Buffer.from(file.text) },
    },
  });
}

/** The group an imported file became (a file's group is named after it, without `.rules`). */
export async function groupNamed(
  api: APIRequestContext,
  name: string,
): Promise<RuleGroup | undefined> {
  const groups = await ok<ListResponse<RuleGroup>>(api.get('groups/?limit=999999&offset=0'));
  return groups.data.find((group) => group.name === name);
}

/** How many rules the list finds with `filter` (the list's own filter syntax, `sid:42`). */
export async function ruleCount(api: APIRequestContext, filter: string): Promise<number> {
  const params = new URLSearchParams({ limit: '1', offset: '0', filter });
  return (await ok<ListResponse<unknown>>(api.get(`rules/?${params}`))).recordsTotal;
}

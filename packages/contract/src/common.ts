import { z } from 'zod';

/**
 * Why tuning from an alert (POST /alerts/{id}/tune) was refused, one code per case. All are
 * 409 but `tune_rule_unknown` (404). A restricted policy is a 409 here, not the 403 a policy
 * write answers, because the console signs out on any 403.
 */
export const TuneErrorCode = z.enum([
  /** The alert's device has no policy. */
  'tune_no_policy',
  /** The alert names no signature (gid and sid). */
  'tune_no_signature',
  /** suppress_source: the alert has no source address. */
  'tune_no_source',
  /** disable_rule: the organization has no rule with the alert's gid and sid. */
  'tune_rule_unknown',
  /** disable_rule: the policy already disables the rule. */
  'tune_rule_already_disabled',
  /** suppress_source: the policy already suppresses this signature from this source. */
  'tune_source_already_suppressed',
  /** The policy is restricted to its editors, and the caller is neither one nor Administrator. */
  'tune_policy_restricted',
]);
export type TuneErrorCode = z.infer<typeof TuneErrorCode>;

/** Stable error codes; the console maps them (and HTTP statuses) to translated text. */
export const ErrorCode = z.enum([
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'validation_failed',
  'rate_limited',
  'internal',
  /** 503: the database connection was lost (or cannot be had); the same call may be retried. */
  'database_unavailable',
  /**
   * 503: the database gave up on this call for a concurrent one (a deadlock, a serialization
   * failure, a lock not had in time); nothing of it was written and it may be retried.
   */
  'database_busy',
  /** 404: the server has no agent build to hand out (`npm run build` makes one). */
  'agent_release_missing',
  /** 401 on POST /agent/enrol: the token is unknown, used, expired or replaced by a newer one. */
  'enrolment_token_invalid',
  /**
   * 422: a firewall change would cut a device off from the server (or loopback); an
   * Administrator may send it again with `override_lockout: true`.
   */
  'lockout',
  ...TuneErrorCode.options,
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorDetail = z.object({
  field: z.string(),
  msg: z.string(),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

export const ErrorResponse = z.object({
  msg: z.string(),
  code: ErrorCode,
  details: z.array(ErrorDetail).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

export const MessageResponse = z.object({ msg: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

/** PostgreSQL's int4 (`integer`): ids and the counters stored beside them. */
export const INT4_MAX = 2_147_483_647;
export const INT4_MIN = -2_147_483_648;
/** Suricata's signature ids and gids are unsigned 32-bit numbers. */
export const UINT32_MAX = 4_294_967_295;

/** What an int4 column holds. */
export const Int4 = z.number().int().min(INT4_MIN).max(INT4_MAX);

/** The id of a row: 1 … 2^31 − 1, as PostgreSQL's `integer` holds it. */
export const Id = z.number().int().min(1).max(INT4_MAX);

/** Why SafeString refused a text; the 422's details name the field. */
export const UNSTORABLE_TEXT = 'Must not contain NUL characters or unpaired surrogates';
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A string PostgreSQL can store: no NUL character (text and jsonb refuse it) and no UTF-16
 * surrogate without its pair (not a character; jsonb refuses it, UTF-8 cannot encode it).
 * Every string a request carries is one of these.
 */
export const safeString = (params?: Parameters<typeof z.string>[0]) =>
  z
    .string(params)
    .refine((value) => !value.includes('\u0000') && !LONE_SURROGATE.test(value), UNSTORABLE_TEXT);
export const SafeString = safeString();

/** Largest page a list call accepts; the console asks for 999999 groups and policies at once. */
export const MAX_PAGE_LIMIT = 1_000_000;

const commaList = SafeString.optional().transform((value) =>
  value === undefined || value.trim() === ''
    ? []
    : value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
);

/**
 * Query of every paged list. sortBy/sortDesc are comma-joined lists (spec §5);
 * filter is a comma-joined list of terms, each `field:value` or free text.
 */
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(0).max(MAX_PAGE_LIMIT).default(100),
  offset: z.coerce.number().int().min(0).default(0),
  sortBy: commaList,
  sortDesc: commaList.pipe(
    z.array(z.enum(['true', 'false', '1', '0'], { message: 'must be true or false' })),
  ),
  filter: SafeString.max(1000).optional(),
});
export type ListQueryInput = z.input<typeof ListQuery>;
export type ListQuery = z.output<typeof ListQuery>;

export function listResponse<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), recordsTotal: z.number().int() });
}
export type ListResponse<T> = { data: T[]; recordsTotal: number };

export const IdParams = z.object({ id: z.coerce.number().int().min(1).max(INT4_MAX) });
export type IdParams = z.infer<typeof IdParams>;

import { z } from 'zod';
import { Id, SafeString } from './common.js';

// ---- Enrolment: a single-use token the console issues for one device, which an agent (run by
// install.sh on the sensor) exchanges once for the device's credentials. ----

/** Token text: `pse_<id>_<secret>`, the secret being 32 random bytes in base64url (43 chars). */
export const ENROLMENT_TOKEN_PREFIX = 'pse_';
export const ENROLMENT_TOKEN_PATTERN = /^pse_([1-9][0-9]{0,17})_([A-Za-z0-9_-]{43})$/;

export const ENROLMENT_TTL_HOURS = { min: 1, max: 720, default: 24 } as const;

/**
 * POST /devices/{id}/enrolment: a new token; the device's earlier unused tokens stop working.
 * The body may be left out (a bare `curl -X POST`): the default lifetime.
 */
export const EnrolmentIssue = z
  .object({
    ttl_hours: z
      .number()
      .int()
      .min(ENROLMENT_TTL_HOURS.min)
      .max(ENROLMENT_TTL_HOURS.max)
      .default(ENROLMENT_TTL_HOURS.default),
  })
  .nullish()
  .transform((body) => ({ ttl_hours: body?.ttl_hours ?? ENROLMENT_TTL_HOURS.default }));
export type EnrolmentIssue = z.input<typeof EnrolmentIssue>;

/** The token, shown once: only its hash is stored. */
export const EnrolmentToken = z.object({
  token: z.string(),
  expires_at: z.string(),
  device_id: Id,
});
export type EnrolmentToken = z.infer<typeof EnrolmentToken>;

/** The device's latest token: `active` until used or expired; `none` before the first. */
export const EnrolmentStatus = z.enum(['none', 'active', 'used', 'expired']);
export type EnrolmentStatus = z.infer<typeof EnrolmentStatus>;

/** GET /devices/{id}/enrolment (never the token). */
export const DeviceEnrolment = z.object({
  status: EnrolmentStatus,
  expires_at: z.string().nullable(),
  used_at: z.string().nullable(),
});
export type DeviceEnrolment = z.infer<typeof DeviceEnrolment>;

/** POST /agent/enrol (public): the agent's request. */
export const AgentEnrol = z.object({
  token: SafeString.min(1).max(200),
  agent_version: SafeString.max(50).optional(),
  protocol: z.number().int().optional(),
  hostname: SafeString.max(255).optional(),
});
export type AgentEnrol = z.infer<typeof AgentEnrol>;

/** The device's new password (its earlier one and the agent tokens it opened stop working). */
export const AgentEnrolment = z.object({
  device_id: Id,
  device_name: z.string(),
  password: z.string(),
});
export type AgentEnrolment = z.infer<typeof AgentEnrolment>;

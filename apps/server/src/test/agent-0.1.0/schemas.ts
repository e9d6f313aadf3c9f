// The answers agent 0.1.0 reads, as its contract (packages/contract/src/devices.ts at commit
// 06d5fd7) declared them: frozen here, so that a change of today's contract cannot hide a
// change that breaks the agents already in the field. Unknown fields are dropped, as it did.

import { z } from 'zod';

export const AgentToken = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
});

export const AgentHeartbeatReply = z.object({
  remote: z.object({ config_version: z.number().int(), policy_version: z.number().int() }),
  pull: z.boolean(),
  interval: z.number().int(),
});

export const AgentBundle = z.object({
  config_version: z.number().int(),
  policy_version: z.number().int(),
  rules: z.string(),
  thresholds: z.string(),
  variables: z.record(z.string(), z.string()),
  nftables: z.string().nullable(),
  routes: z.string().nullable(),
});

export const AgentAck = z.object({ ack: z.number().int() });

export const AgentAlertAck = AgentAck.extend({
  rejected: z.array(z.object({ index: z.number().int().min(0), reason: z.string() })).default([]),
});

export const ANSWERS = { AgentToken, AgentHeartbeatReply, AgentBundle, AgentAck, AgentAlertAck };

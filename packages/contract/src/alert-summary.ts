import { z } from 'zod';
import { AlertSignatureGroup } from './alerts.js';

/** GET /alerts/summary: the Home dashboard's alert figures over one window ending now. */
export const AlertSummaryQuery = z.object({
  /** Window start (ISO time); default the last 24 hours. */
  since: z.iso.datetime({ offset: true }).optional(),
  buckets: z.coerce.number().int().min(1).max(200).default(48),
  /** Entries of each top list. */
  top: z.coerce.number().int().min(1).max(50).default(10),
});
export type AlertSummaryQuery = z.infer<typeof AlertSummaryQuery>;

/** Severities the rate is split into: 1 (high) to 3, and 4 for 4 and beyond or none. */
export const SUMMARY_SEVERITIES = [1, 2, 3, 4] as const;

export const AlertTalker = z.object({ ip: z.string(), count: z.number().int() });
export type AlertTalker = z.infer<typeof AlertTalker>;

export const AlertSummary = z.object({
  since: z.string(),
  /** Bucket width in seconds. */
  interval: z.number().int(),
  /** Oldest first, every bucket of the window: counts per severity 1, 2, 3, 4+. */
  rate: z.array(z.object({ time: z.string(), counts: z.array(z.number().int()).length(4) })),
  top_signatures: z.array(AlertSignatureGroup),
  top_sources: z.array(AlertTalker),
  top_destinations: z.array(AlertTalker),
});
export type AlertSummary = z.infer<typeof AlertSummary>;

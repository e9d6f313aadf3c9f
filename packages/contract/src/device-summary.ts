import { z } from 'zod';

/**
 * The Home dashboard's device figures, each the filter of the Devices list that shows exactly
 * those devices: `online:false`, `update_pending:true`, `error:true`, `health:degraded`,
 * `firewall_drift:true`.
 */
export const DEVICE_PROBLEMS = [
  'offline',
  'pending',
  'errors',
  'unhealthy',
  'firewall_drift',
] as const;
export const DeviceProblem = z.enum(DEVICE_PROBLEMS);
export type DeviceProblem = z.infer<typeof DeviceProblem>;

/** Most devices GET /devices/summary names for each figure. */
export const DEVICE_SUMMARY_MAX_NAMED = 20;

/** GET /devices/summary. */
export const DeviceSummaryQuery = z.object({
  /** Devices named for each figure (their count is always whole). */
  named: z.coerce.number().int().min(0).max(DEVICE_SUMMARY_MAX_NAMED).default(5),
});
export type DeviceSummaryQuery = z.infer<typeof DeviceSummaryQuery>;

export const DeviceSummaryFigure = z.object({
  count: z.number().int(),
  /**
   * The first `named` of them: offline ones most recently seen first (never seen last), the
   * others newest device first; ties by id, newest first.
   */
  devices: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type DeviceSummaryFigure = z.infer<typeof DeviceSummaryFigure>;

/** The organization's device figures, counted in one statement whatever the fleet. */
export const DeviceSummary = z.object({
  total: z.number().int(),
  problems: z.object({
    offline: DeviceSummaryFigure,
    pending: DeviceSummaryFigure,
    errors: DeviceSummaryFigure,
    unhealthy: DeviceSummaryFigure,
    /**
     * The firewall differs from what Palisade applied, or was changed outside Palisade and
     * re-applied by the agent in the last 24 hours.
     */
    firewall_drift: DeviceSummaryFigure,
  }),
});
export type DeviceSummary = z.infer<typeof DeviceSummary>;

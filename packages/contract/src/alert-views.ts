import { z } from 'zod';
import { SafeString } from './common.js';
import { AlertFilters } from './alerts.js';

/**
 * The relative time windows of the alerts screen's filters: a view saved with "last 24 hours"
 * shows the last 24 hours whenever it is applied.
 */
export const AlertRelativeRange = z.enum(['1h', '24h', '7d', '30d']);
export type AlertRelativeRange = z.infer<typeof AlertRelativeRange>;

/** What a saved view keeps: the list's filters, with a relative window instead of fixed times. */
export const AlertViewFilters = AlertFilters.extend({
  range: AlertRelativeRange.optional(),
}).refine((f) => f.range === undefined || (f.since === undefined && f.until === undefined), {
  path: ['range'],
  message: 'A relative range takes no since or until',
});
export type AlertViewFilters = z.infer<typeof AlertViewFilters>;

const AlertViewName = SafeString.trim().min(1, 'Required').max(100);

/**
 * A saved view (`/alertviews/`): named filters of one user, listed to the whole organization
 * when `shared`. Only its owner may change or delete it (`can_edit`).
 */
export const AlertView = z.object({
  id: z.number().int(),
  name: z.string(),
  filters: AlertViewFilters,
  shared: z.boolean(),
  /** The owner's e-mail. */
  owner: z.string(),
  /** The caller owns it, and so may rename, change, share or delete it. */
  can_edit: z.boolean(),
  updated_at: z.string(),
});
export type AlertView = z.infer<typeof AlertView>;

/** POST /alertviews/: a Viewer may keep views of their own; sharing takes an Operator. */
export const AlertViewWrite = z.object({
  name: AlertViewName,
  filters: AlertViewFilters.default({}),
  shared: z.boolean().default(false),
});
export type AlertViewWrite = z.input<typeof AlertViewWrite>;

/** PUT /alertviews/{id}: the fields given change (a rename, new filters, sharing). */
export const AlertViewUpdate = z.object({
  name: AlertViewName.optional(),
  filters: AlertViewFilters.optional(),
  shared: z.boolean().optional(),
});
export type AlertViewUpdate = z.input<typeof AlertViewUpdate>;

/** Views one user may keep. */
export const MAX_ALERT_VIEWS_PER_USER = 200;

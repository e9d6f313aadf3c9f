import { z } from 'zod';

export const ComponentVersion = z.object({
  installed: z.string(),
  registry: z.string(),
});

/** GET /components: versions the console compares against its cached copy (spec §4). */
export const Components = z.object({
  packages: z.record(z.string(), ComponentVersion),
});
export type Components = z.infer<typeof Components>;

export const Health = z.object({ status: z.enum(['ok', 'unavailable']) });
export type Health = z.infer<typeof Health>;

/** GET /config: what the console must know before anyone signs in. */
export const PublicConfig = z.object({
  auth_disabled: z.boolean(),
  version: z.string(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;

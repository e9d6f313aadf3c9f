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

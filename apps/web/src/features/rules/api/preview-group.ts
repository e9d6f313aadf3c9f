import type { ChangePreview, RuleGroupUpdate } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';

/**
 * PUT /groups/{id}/preview: what the group's edit (its rules, name or description) would send
 * to the devices whose policies take the group, with the same body as the save.
 */
export const previewGroup = (
  id: number,
  body: z.input<typeof RuleGroupUpdate>,
): Promise<ChangePreview> => call(() => http.put(`groups/${id}/preview`, { json: body }).json());

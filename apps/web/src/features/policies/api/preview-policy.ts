import type { ChangePreview, PolicyUpdate } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';

/** PUT /policies/{id}/preview: what saving the policy would send, nothing saved. */
export const previewPolicy = (id: number, body: z.input<typeof PolicyUpdate>) =>
  call(() => http.put(`policies/${id}/preview`, { json: body }).json<ChangePreview>());

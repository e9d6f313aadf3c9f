import type { ChangePreview, DeviceUpdate } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';

/** PUT /devices/{id}/preview: what the device update would send (an assignment), nothing saved. */
export const previewDevice = (id: number, body: z.input<typeof DeviceUpdate>) =>
  call(() => http.put(`devices/${id}/preview`, { json: body }).json<ChangePreview>());

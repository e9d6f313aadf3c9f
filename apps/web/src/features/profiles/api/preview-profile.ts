import type { ChangePreview, DeviceProfileUpdate } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';

/** PUT /deviceconfigurationprofiles/{id}/preview: what saving the profile would send. */
export const previewProfile = (id: number, body: z.input<typeof DeviceProfileUpdate>) =>
  call(() =>
    http.put(`deviceconfigurationprofiles/${id}/preview`, { json: body }).json<ChangePreview>(),
  );

import type { ChangePreview, DeviceNetworkInput } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** PUT /devices/{id}/network/preview: the route and NAT changes the device would receive. */
export const previewDeviceNetwork = (id: number, body: DeviceNetworkInput) =>
  call(() => http.put(`devices/${id}/network/preview`, { json: body }).json<ChangePreview>());

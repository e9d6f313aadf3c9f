import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceProfile, DeviceProfileUpdate, DeviceProfileWrite } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { mergeProfile, profilesListQueryOptions } from './list-profiles';

type ProfileBody = z.input<typeof DeviceProfileWrite> & z.input<typeof DeviceProfileUpdate>;

/** POST /deviceconfigurationprofiles/ (no id) or PUT /deviceconfigurationprofiles/{id}. */
export function useSaveProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ProfileBody }) =>
      call(() =>
        (id === null
          ? http.post('deviceconfigurationprofiles/', { json: body })
          : http.put(`deviceconfigurationprofiles/${id}`, { json: body })
        ).json<DeviceProfile>(),
      ),
    onSuccess: (profile) =>
      client.setQueryData(profilesListQueryOptions.queryKey, (list) => mergeProfile(list, profile)),
  });
}

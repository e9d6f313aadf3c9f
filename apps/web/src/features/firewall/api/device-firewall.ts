import { queryOptions } from '@tanstack/react-query';
import type { DeviceFirewallPreview } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';

export const deviceFirewallKey = (id: number) => ['devices', 'firewall', id] as const;

/** GET /devices/{id}/firewall: the exact nftables script and route commands the device gets. */
export const deviceFirewallQueryOptions = (id: number) =>
  queryOptions({
    queryKey: deviceFirewallKey(id),
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get(`devices/${id}/firewall`, { signal })
          .json<z.infer<typeof DeviceFirewallPreview>>(),
      ),
    staleTime: 0,
  });

import type { QueryClient } from '@tanstack/react-query';
import type { AlertStarResult } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { alertsKey } from './keys';

/**
 * PUT /alerts/{id}/star {starred} (Administrator, Operator), then the alert lists are read
 * again. A plain function rather than a mutation hook: the list holds one star a row, and a
 * mutation observer each cost more to mount than the row's other cells.
 */
export async function starAlert(
  client: QueryClient,
  id: number,
  starred: boolean,
): Promise<z.infer<typeof AlertStarResult>> {
  const answer = await call(() =>
    http.put(`alerts/${id}/star`, { json: { starred } }).json<z.infer<typeof AlertStarResult>>(),
  );
  await client.invalidateQueries({ queryKey: alertsKey });
  return answer;
}

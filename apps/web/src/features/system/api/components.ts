import type { Components } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** GET /components: installed and registry version of every component. */
export function fetchComponents(): Promise<Components> {
  return call(() => http.get('components').json<Components>());
}

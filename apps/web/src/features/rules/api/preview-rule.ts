import type { ChangePreview } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import type { RuleSave } from './save-rule';

/**
 * POST /rules/preview or PUT /rules/{id}/preview: what saving the rule would send to the devices
 * whose policies hold it (the same body as the save).
 */
export const previewRule = (
  save: RuleSave | { id: number; enabled: boolean },
): Promise<ChangePreview> =>
  call(() => {
    if ('enabled' in save) {
      return http.put(`rules/${save.id}/preview`, { json: { enabled: save.enabled } }).json();
    }
    const { id, text, group_ids } = save;
    return id === undefined
      ? http.post('rules/preview', { json: { text, group_ids } }).json()
      : http.put(`rules/${id}/preview`, { json: { text } }).json();
  });

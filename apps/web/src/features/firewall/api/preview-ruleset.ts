import type { ChangePreview, FirewallRulesetWriteInput } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** PUT /fwruleset/{id}/preview: what saving the ruleset would send, nothing saved. */
export const previewRuleset = (id: number, body: FirewallRulesetWriteInput) =>
  call(() => http.put(`fwruleset/${id}/preview`, { json: body }).json<ChangePreview>());

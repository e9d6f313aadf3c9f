import { call, http } from '../../../lib/api-client';
import { fileNameOf, saveBlob } from '../../../lib/upload';

async function download(path: string, fallback: string): Promise<void> {
  const response = await call(() => http.get(path));
  saveBlob(
    await response.blob(),
    fileNameOf(response.headers.get('content-disposition'), fallback),
  );
}

/** GET /policies/{id}/rules: the rendered rules as a file. */
export const downloadPolicyRules = (id: number) =>
  download(`policies/${id}/rules`, `policy-${id}.rules`);

/** GET /policies/{id}/threshold.config: its thresholds and suppressions as a file. */
export const downloadPolicyThresholds = (id: number) =>
  download(`policies/${id}/threshold.config`, `policy-${id}.threshold.config`);

/** GET /policies/{id}/export: the policy as our JSON export file. */
export const exportPolicy = (id: number) =>
  download(`policies/${id}/export`, `policy-${id}.policy.json`);

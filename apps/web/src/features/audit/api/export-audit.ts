import { call, http } from '../../../lib/api-client';
import { fileNameOf, saveBlob } from '../../../lib/upload';
import { filterParams, type AuditFilters } from './list-audit';

/** GET /audit/export: the filtered log as a CSV or JSON file (Bearer-authorised download). */
export async function exportAudit(filters: AuditFilters, format: 'csv' | 'json'): Promise<void> {
  const response = await call(() =>
    http.get('audit/export', { searchParams: { ...filterParams(filters), format } }),
  );
  saveBlob(
    await response.blob(),
    fileNameOf(response.headers.get('content-disposition'), `audit.${format}`),
  );
}
